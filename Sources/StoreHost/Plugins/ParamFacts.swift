import StoreValue

/// Reads a parameter's shape and default from their texts (`sp_param.shape` and
/// `default_value`, or the worker protocol's copies) and checks them: the shape reads and
/// fits the parameter's type, and the default reads and fits the shape.
enum ParamFacts {
    struct Problem: Error {
        let message: String
    }

    static func read(type: ParamType, shape shapeText: String?, defaultText: String?) throws(Problem) -> (
        TypeShape?, Value?
    ) {
        var shape: TypeShape?
        if let shapeText {
            do throws(TextError) {
                shape = try TypeShape.parse(shapeText)
            } catch {
                throw Problem(
                    message: "its shape \(Value.quoted(shapeText)) does not read: \(place(error, in: shapeText))")
            }
            if let read = shape {
                guard read.fits(kind: type.rawValue) else {
                    throw Problem(message: "its shape \(read.summary) cannot travel as type \(type.rawValue)")
                }
                if read == .plain(kind: type.rawValue) { shape = nil }
            }
        }
        guard let defaultText else { return (shape, nil) }
        let literal: Value
        do throws(TextError) {
            literal = try Literal.parse(Array(defaultText.utf8))
        } catch {
            throw Problem(
                message: "its default \(Value.quoted(defaultText)) does not read: \(place(error, in: defaultText))")
        }
        do throws(ShapeMismatch) {
            return (shape, try (shape ?? .plain(kind: type.rawValue)).conform(literal))
        } catch {
            throw Problem(
                message:
                    "its default \(defaultText) does not fit: \(error.path.isEmpty ? "" : "\(error.path): ")\(error.message)"
            )
        }
    }

    private static func place(_ error: TextError, in text: String) -> String {
        let column = String(decoding: Array(text.utf8).prefix(error.offset), as: UTF8.self).count + 1
        return "column \(column): \(error.message)"
    }
}
