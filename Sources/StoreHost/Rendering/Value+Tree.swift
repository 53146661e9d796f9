package import StoreValue

extension Value {
    /// An indented tree, one leaf per line, cut off below `depth` levels (nil: no limit).
    /// Unless `whole`, lists and records show their first `shownItems` children and then
    /// how many more there are, and long strings are cut (see `brief`).
    package func tree(depth: Int? = nil, whole: Bool = false) -> String {
        var lines: [String] = []
        renderTree(into: &lines, indent: "", depth: depth, whole: whole)
        return lines.joined(separator: "\n")
    }

    private func leaf(_ whole: Bool) -> String {
        whole ? compact : brief()
    }

    private var isLeaf: Bool {
        switch self {
        case .array(let items): items.isEmpty
        case .record(_, let fields): fields.isEmpty
        case .enumCase(_, let payload): payload.isEmpty || payload.allSatisfy { $0.value.isLeaf }
        default: true
        }
    }

    private func renderTree(into lines: inout [String], indent: String, depth: Int?, whole: Bool) {
        guard !isLeaf else {
            lines.append(indent + leaf(whole))
            return
        }
        let children = labelledChildren
        for (label, child) in whole ? children[...] : children.prefix(Self.shownItems) {
            if child.isLeaf {
                lines.append("\(indent)\(label): \(child.leaf(whole))")
            } else if let depth, depth <= 1 {
                lines.append("\(indent)\(label): \(child.summary)")
            } else {
                lines.append("\(indent)\(label):\(child.header)")
                child.renderTree(into: &lines, indent: indent + "  ", depth: depth.map { $0 - 1 }, whole: whole)
            }
        }
        if !whole, children.count > Self.shownItems {
            lines.append(
                "\(indent)… \(Self.count(children.count - Self.shownItems)) more (:state PATH --all shows everything)")
        }
    }

    private var labelledChildren: [(String, Value)] {
        switch self {
        case .array(let items): return items.enumerated().map { ("[\($0.offset)]", $0.element) }
        case .record(_, let fields): return fields.map { (Self.label($0.label ?? ""), $0.value) }
        case .enumCase(_, let payload):
            return payload.enumerated().map { ($0.element.label.map(Self.label) ?? "[\($0.offset)]", $0.element.value) }
        default: return []
        }
    }

    /// What follows a label before the children of a compound value.
    private var header: String {
        if case .enumCase(let name, _) = self { return " ." + name }
        return ""
    }

    /// A compound value cut off by `--depth`.
    private var summary: String {
        switch self {
        case .array(let items): "[…] (\(items.count) items)"
        case .record(_, let fields): "{…} (\(fields.count) fields)"
        case .enumCase(let name, let payload): ".\(name)(…) (\(payload.count) values)"
        default: compact
        }
    }
}
