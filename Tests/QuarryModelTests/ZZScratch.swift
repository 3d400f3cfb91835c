import Testing
@testable import QuarryModel
@Test func zzPrint() {
    for c in malformedCases {
        do {
            switch c.format {
            case .yaml: _ = try ModelReader.read(yaml: c.text, file: "m.yaml")
            case .json: _ = try ModelReader.read(json: c.text, file: "m.json")
            case .xml: _ = try ModelReader.read(xml: c.text, file: "contents")
            }
        } catch { print("ZZ", c.name, "→", error) }
    }
    for c in yamlErrorCases + xmlErrorCases {
        do {
            switch c.format {
            case .yaml: _ = try ModelReader.read(yaml: c.text, file: "m.yaml")
            case .json: _ = try ModelReader.read(json: c.text, file: "m.json")
            case .xml: _ = try ModelReader.read(xml: c.text, file: "contents")
            }
        } catch { print("ZZ", error) }
    }
}
