// swift-format-ignore-file: AlwaysUseLowerCamelCase

import CStorePlugin

// Typed entry points for SDK plugins, one per signature of up to two scalar parameters.
// A C function cannot capture context, so each one takes the store and the action from
// its first two arguments (`store`, `action_data`) and hands the converted arguments to
// `TypedDispatch.run`. Actions with other signatures use the value-tree path.
// (Written out once by a script: one line per signature.)

typealias Result_ = UnsafeMutablePointer<sp_dispatch_result>?
typealias Error_ = UnsafeMutablePointer<sp_error>?
typealias Raw = UnsafeMutableRawPointer?

enum TypedEntries {
    /// The entry point for `signature`, or nil when the SDK has none for it.
    static func entry(for signature: String) -> sp_typed_entry? {
        switch signature {
        case "": return unsafeBitCast(e_none, to: sp_typed_entry.self)
        case "i": return unsafeBitCast(e_i, to: sp_typed_entry.self)
        case "d": return unsafeBitCast(e_d, to: sp_typed_entry.self)
        case "b": return unsafeBitCast(e_b, to: sp_typed_entry.self)
        case "s": return unsafeBitCast(e_s, to: sp_typed_entry.self)
        case "ii": return unsafeBitCast(e_ii, to: sp_typed_entry.self)
        case "id": return unsafeBitCast(e_id, to: sp_typed_entry.self)
        case "ib": return unsafeBitCast(e_ib, to: sp_typed_entry.self)
        case "is": return unsafeBitCast(e_is, to: sp_typed_entry.self)
        case "di": return unsafeBitCast(e_di, to: sp_typed_entry.self)
        case "dd": return unsafeBitCast(e_dd, to: sp_typed_entry.self)
        case "db": return unsafeBitCast(e_db, to: sp_typed_entry.self)
        case "ds": return unsafeBitCast(e_ds, to: sp_typed_entry.self)
        case "bi": return unsafeBitCast(e_bi, to: sp_typed_entry.self)
        case "bd": return unsafeBitCast(e_bd, to: sp_typed_entry.self)
        case "bb": return unsafeBitCast(e_bb, to: sp_typed_entry.self)
        case "bs": return unsafeBitCast(e_bs, to: sp_typed_entry.self)
        case "si": return unsafeBitCast(e_si, to: sp_typed_entry.self)
        case "sd": return unsafeBitCast(e_sd, to: sp_typed_entry.self)
        case "sb": return unsafeBitCast(e_sb, to: sp_typed_entry.self)
        case "ss": return unsafeBitCast(e_ss, to: sp_typed_entry.self)
        default: return nil
        }
    }

    static let e_none: @convention(c) (Raw, Raw, Result_, Error_) -> Int32 = { s, d, r, e in
        TypedDispatch.run(s, d, r, e, [])
    }
    static let e_i: @convention(c) (Raw, Raw, Result_, Error_, Int64) -> Int32 = { s, d, r, e, a0 in
        TypedDispatch.run(s, d, r, e, [.int(a0)])
    }
    static let e_d: @convention(c) (Raw, Raw, Result_, Error_, Double) -> Int32 = { s, d, r, e, a0 in
        TypedDispatch.run(s, d, r, e, [.double(a0)])
    }
    static let e_b: @convention(c) (Raw, Raw, Result_, Error_, Bool) -> Int32 = { s, d, r, e, a0 in
        TypedDispatch.run(s, d, r, e, [.bool(a0)])
    }
    static let e_s: @convention(c) (Raw, Raw, Result_, Error_, UnsafePointer<CChar>?) -> Int32 = { s, d, r, e, a0 in
        TypedDispatch.run(s, d, r, e, [.string(a0.map { String(cString: $0) } ?? "")])
    }
    static let e_ii: @convention(c) (Raw, Raw, Result_, Error_, Int64, Int64) -> Int32 = { s, d, r, e, a0, a1 in
        TypedDispatch.run(s, d, r, e, [.int(a0), .int(a1)])
    }
    static let e_id: @convention(c) (Raw, Raw, Result_, Error_, Int64, Double) -> Int32 = { s, d, r, e, a0, a1 in
        TypedDispatch.run(s, d, r, e, [.int(a0), .double(a1)])
    }
    static let e_ib: @convention(c) (Raw, Raw, Result_, Error_, Int64, Bool) -> Int32 = { s, d, r, e, a0, a1 in
        TypedDispatch.run(s, d, r, e, [.int(a0), .bool(a1)])
    }
    static let e_is: @convention(c) (Raw, Raw, Result_, Error_, Int64, UnsafePointer<CChar>?) -> Int32 = {
        s, d, r, e, a0, a1 in TypedDispatch.run(s, d, r, e, [.int(a0), .string(a1.map { String(cString: $0) } ?? "")])
    }
    static let e_di: @convention(c) (Raw, Raw, Result_, Error_, Double, Int64) -> Int32 = { s, d, r, e, a0, a1 in
        TypedDispatch.run(s, d, r, e, [.double(a0), .int(a1)])
    }
    static let e_dd: @convention(c) (Raw, Raw, Result_, Error_, Double, Double) -> Int32 = { s, d, r, e, a0, a1 in
        TypedDispatch.run(s, d, r, e, [.double(a0), .double(a1)])
    }
    static let e_db: @convention(c) (Raw, Raw, Result_, Error_, Double, Bool) -> Int32 = { s, d, r, e, a0, a1 in
        TypedDispatch.run(s, d, r, e, [.double(a0), .bool(a1)])
    }
    static let e_ds: @convention(c) (Raw, Raw, Result_, Error_, Double, UnsafePointer<CChar>?) -> Int32 = {
        s, d, r, e, a0, a1 in
        TypedDispatch.run(s, d, r, e, [.double(a0), .string(a1.map { String(cString: $0) } ?? "")])
    }
    static let e_bi: @convention(c) (Raw, Raw, Result_, Error_, Bool, Int64) -> Int32 = { s, d, r, e, a0, a1 in
        TypedDispatch.run(s, d, r, e, [.bool(a0), .int(a1)])
    }
    static let e_bd: @convention(c) (Raw, Raw, Result_, Error_, Bool, Double) -> Int32 = { s, d, r, e, a0, a1 in
        TypedDispatch.run(s, d, r, e, [.bool(a0), .double(a1)])
    }
    static let e_bb: @convention(c) (Raw, Raw, Result_, Error_, Bool, Bool) -> Int32 = { s, d, r, e, a0, a1 in
        TypedDispatch.run(s, d, r, e, [.bool(a0), .bool(a1)])
    }
    static let e_bs: @convention(c) (Raw, Raw, Result_, Error_, Bool, UnsafePointer<CChar>?) -> Int32 = {
        s, d, r, e, a0, a1 in TypedDispatch.run(s, d, r, e, [.bool(a0), .string(a1.map { String(cString: $0) } ?? "")])
    }
    static let e_si: @convention(c) (Raw, Raw, Result_, Error_, UnsafePointer<CChar>?, Int64) -> Int32 = {
        s, d, r, e, a0, a1 in TypedDispatch.run(s, d, r, e, [.string(a0.map { String(cString: $0) } ?? ""), .int(a1)])
    }
    static let e_sd: @convention(c) (Raw, Raw, Result_, Error_, UnsafePointer<CChar>?, Double) -> Int32 = {
        s, d, r, e, a0, a1 in
        TypedDispatch.run(s, d, r, e, [.string(a0.map { String(cString: $0) } ?? ""), .double(a1)])
    }
    static let e_sb: @convention(c) (Raw, Raw, Result_, Error_, UnsafePointer<CChar>?, Bool) -> Int32 = {
        s, d, r, e, a0, a1 in TypedDispatch.run(s, d, r, e, [.string(a0.map { String(cString: $0) } ?? ""), .bool(a1)])
    }
    static let e_ss: @convention(c) (Raw, Raw, Result_, Error_, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> Int32 =
        { s, d, r, e, a0, a1 in
            TypedDispatch.run(
                s, d, r, e,
                [.string(a0.map { String(cString: $0) } ?? ""), .string(a1.map { String(cString: $0) } ?? "")])
        }
}
