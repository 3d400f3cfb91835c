// The `eval --jsonl` loop: read a request line, write its answer line, and
// flush at once. stdout is block-buffered on a pipe, so without the flush a
// client that sends one request and waits for its answer would wait forever.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension MachineInterface {
    /// Answers every line of standard input, one flushed line each, in order.
    public func serveStandardInput() {
        serve(readLine: { readLine(strippingNewline: true) }, write: { answer in
            print(answer)
            fflush(nil)  // every stream: stdout is the one written
        })
    }

    /// The loop itself, over any line source and sink (tests drive it directly).
    public func serve(readLine: () -> String?, write: (String) -> Void) {
        while let line = readLine() {
            write(answer(line: line))
        }
    }
}
