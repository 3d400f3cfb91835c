// Evaluation requests of the machine interface: parse with the arguments,
// substitute nothing (variables are passed to the evaluator), evaluate against
// `object` or each of `objects`.

extension MachineInterface {
    func evaluate(kind: String, source: SourceText, arguments: [Value], request: JSON) throws(Diagnostic) -> (String, JSON) {
        var variables: [String: Value] = [:]
        if case .object(let members)? = request["vars"] {
            for (k, v) in members { variables[k] = Value(json: v) }
        }
        var objects: [Value]? = nil
        if case .array(let items)? = request["objects"] { objects = items.map(Value.init(json:)) }
        let object = request["object"].map(Value.init(json:)) ?? .null
        if kind == "predicate" {
            let tree = try Parser.parsePredicate(source, arguments: arguments, allowsExtraArguments: true)
            let compiled = try Evaluator.compile(tree, options: options)
            if let objects {
                var results: [JSON] = []
                for o in objects { results.append(.bool(try compiled.evaluate(o, variables: variables))) }
                return (Printer.format(tree), .array(results))
            }
            return (Printer.format(tree), .bool(try compiled.evaluate(object, variables: variables)))
        }
        let tree = try Parser.parseExpression(source, arguments: arguments, allowsExtraArguments: true)
        let compiled = try Evaluator.compile(tree, options: options)
        if let objects {
            var results: [JSON] = []
            for o in objects { results.append(try compiled.evaluate(o, variables: variables).json) }
            return (Printer.format(tree), .array(results))
        }
        return (Printer.format(tree), try compiled.evaluate(object, variables: variables).json)
    }
}
