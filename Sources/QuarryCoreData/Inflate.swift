// Raw DEFLATE decompression (zlib with no header, `windowBits = -15`): the
// encoding of the model Core Data caches in `Z_MODELCACHE.Z_CONTENT`. The
// output is capped, so a damaged or hostile blob cannot exhaust memory.
import CZlib

enum Inflate {
    /// The bytes `deflated` expands to; nil when it is not valid raw
    /// DEFLATE or would expand past `limit` bytes.
    static func raw(_ deflated: [UInt8], limit: Int = 256 << 20) -> [UInt8]? {
        var stream = z_stream()
        guard inflateInit2_(&stream, -15, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        var input = deflated
        return input.withUnsafeMutableBufferPointer { inBuffer -> [UInt8]? in
            stream.next_in = inBuffer.baseAddress
            stream.avail_in = UInt32(inBuffer.count)
            while true {
                let status = chunk.withUnsafeMutableBufferPointer { out -> Int32 in
                    stream.next_out = out.baseAddress
                    stream.avail_out = UInt32(out.count)
                    return inflate(&stream, Z_NO_FLUSH)
                }
                let produced = chunk.count - Int(stream.avail_out)
                output.append(contentsOf: chunk[0..<produced])
                if output.count > limit { return nil }
                if status == Z_STREAM_END { return output }
                // No progress with input left (or none left before the end): damaged.
                if status != Z_OK || (produced == 0 && stream.avail_in == 0) { return nil }
            }
        }
    }
}
