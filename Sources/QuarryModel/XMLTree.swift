// A minimal XML element tree built with Foundation's SAX parser (libxml2 on
// Linux), plus the one thing SAX does not give: where in the file each
// element and each XML attribute sits. XMLParser reports only the line where
// a start tag *ends*; Xcode writes most tags on one line, but not all, so the
// tree finds the tag's real start (`<name`) by scanning back from there, and
// an attribute's value by scanning forward from the tag's start.
//
// Nothing here trusts the input: malformed XML is an error with a line and
// column, and external entities are never resolved.
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

struct ModelXMLElement {
    var name: String
    var attributes: [String: String]
    var children: [ModelXMLElement] = []
    /// Where `<name` starts.
    var line: Int
    var column: Int
    /// The line XMLParser reported (where the start tag ends).
    var endLine: Int

    func children(named name: String) -> [ModelXMLElement] { children.filter { $0.name == name } }
    subscript(attribute: String) -> String? { attributes[attribute] }
}

struct XMLTree {
    let file: String
    let lines: [[Character]]
    let root: ModelXMLElement

    init(xml: String, file: String) throws(ModelError) {
        self.file = file
        // `\r\n` is one Character in Swift: split on any line break.
        self.lines = xml.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map { Array($0) }
        let builder = TreeBuilder(lines: lines)
        let parser = XMLParser(data: Data(xml.utf8))
        parser.shouldResolveExternalEntities = false
        parser.delegate = builder
        let ok = parser.parse()
        if !ok || builder.failure != nil {
            let (line, column, reason) = builder.failure ?? (parser.lineNumber, parser.columnNumber, parser.parserError.map { "\($0)" } ?? "unknown error")
            throw ModelError(.syntax, "malformed XML: \(reason)", file: file, line: max(line, 1), column: column > 0 ? column : nil)
        }
        guard let root = builder.root else {
            throw ModelError(.syntax, "malformed XML: no root element", file: file, line: 1)
        }
        self.root = root
    }

    /// Where the element starts.
    func location(_ element: ModelXMLElement) -> ModelLocation {
        ModelLocation(line: element.line, column: element.column)
    }

    /// Where the value of `attribute` of `element` starts, with the file
    /// column of each decoded character when the value is on one line (an
    /// entity such as `&gt;` is one decoded character over several columns).
    /// Falls back to the element's own location.
    func location(of attribute: String, in element: ModelXMLElement) -> ModelLocation {
        for lineNumber in element.line...max(element.line, element.endLine) where lineNumber <= lines.count {
            let line = lines[lineNumber - 1]
            let needle = Array(attribute + "=")
            var i = lineNumber == element.line ? element.column - 1 : 0
            while i + needle.count < line.count {
                if Array(line[i..<i + needle.count]) == needle, i == 0 || line[i - 1].isWhitespace,
                   line[i + needle.count] == "\"" || line[i + needle.count] == "'" {
                    let quote = line[i + needle.count]
                    let start = i + needle.count + 1
                    var columns: [Int] = []
                    var j = start
                    while j < line.count, line[j] != quote {
                        columns.append(j + 1)
                        if line[j] == "&", let semicolon = line[j...].firstIndex(of: ";") { j = semicolon + 1 } else { j += 1 }
                    }
                    return ModelLocation(line: lineNumber, column: start + 1, textColumns: j < line.count ? columns : nil)
                }
                i += 1
            }
        }
        return location(element)
    }
}

private final class TreeBuilder: NSObject, XMLParserDelegate {
    let lines: [[Character]]
    var stack: [ModelXMLElement] = []
    var root: ModelXMLElement?
    var failure: (Int, Int, String)?
    static let maximumDepth = 100

    init(lines: [[Character]]) { self.lines = lines }

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
        let reported = max(parser.lineNumber, 1)
        // Elements nest at most a few levels in a model; the tree is freed
        // recursively, so hostile nesting is refused rather than followed.
        if stack.count >= Self.maximumDepth {
            if failure == nil {
                failure = (reported, parser.columnNumber, "elements nested deeper than \(Self.maximumDepth) levels")
            }
            parser.abortParsing()
            return
        }
        let (line, column) = start(of: elementName, before: reported)
        stack.append(ModelXMLElement(name: elementName, attributes: attributeDict, line: line, column: column, endLine: reported))
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        guard let element = stack.popLast() else { return }
        if stack.isEmpty { root = element } else { stack[stack.count - 1].children.append(element) }
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
        if failure == nil {
            failure = (parser.lineNumber, parser.columnNumber, Self.describe(parseError))
        }
    }

    /// The last `<name` at or before line `reported`.
    func start(of name: String, before reported: Int) -> (Int, Int) {
        let needle = Array("<" + name)
        var lineNumber = min(reported, lines.count)
        while lineNumber >= 1 && lineNumber > reported - 50 {
            let line = lines[lineNumber - 1]
            var i = line.count - needle.count
            while i >= 0 {
                if Array(line[i..<i + needle.count]) == needle,
                   i + needle.count == line.count || line[i + needle.count].isWhitespace
                    || line[i + needle.count] == ">" || line[i + needle.count] == "/" {
                    return (lineNumber, i + 1)
                }
                i -= 1
            }
            lineNumber -= 1
        }
        return (reported, 1)
    }

    /// libxml2's error codes as words (XMLParser on Linux gives only the code).
    static func describe(_ error: Error) -> String {
        let code = (error as NSError).code
        switch code {
        case 4: return "the document is empty or not XML"
        case 5: return "the document ends too early (an element is not closed)"
        case 9: return "an invalid character"
        case 23, 24, 26: return "a reference to an unknown or malformed entity (use &amp; &lt; &gt; &quot; &apos;)"
        case 38, 39, 40, 41: return "a malformed attribute (each needs name=\"value\")"
        case 64, 65, 66, 67, 68, 73: return "a malformed tag"
        case 76: return "a closing tag that does not match its opening tag"
        case 111: return "an element without a closing tag"
        default: return "XML parser error \(code)"
        }
    }
}
