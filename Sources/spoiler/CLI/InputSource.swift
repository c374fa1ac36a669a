import Glibc

/// An input file or standard input, read whole or as lines, in bounded memory.
///
/// A file it opened is closed when the last reference to it goes away; standard input
/// is left open.
final class InputSource {
    let fd: Int32
    /// What to call the input in messages: the path, or "<stdin>".
    let name: String
    /// Whether ``fd`` was opened here (and so is closed here).
    private let ownsDescriptor: Bool

    /// Opens `path`, or standard input when nil.
    ///
    /// - Parameters:
    ///   - path: The file, or nil for standard input.
    ///   - what: What the file is to the command, for errors: `path: cannot open font: …`.
    /// - Throws: a failure in the one error form, `path: cannot open: No such file or
    ///   directory`, `path: cannot read: Is a directory`.
    init(path: String?, what: String? = nil) throws(CommandLineError) {
        if let path {
            let noun = what.map { " \($0)" } ?? ""
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else {
                throw .failure("\(path): cannot open\(noun): \(String(cString: strerror(errno)))")
            }
            var st = stat()
            if fstat(fd, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR {
                close(fd)
                throw .failure("\(path): cannot read\(noun): Is a directory")
            }
            self.fd = fd
            name = path
            ownsDescriptor = true
        } else {
            fd = 0
            name = "<stdin>"
            ownsDescriptor = false
        }
    }

    deinit {
        if ownsDescriptor { close(fd) }
    }

    /// Opens `path` (standard input when nil), calls `body` with it and closes it before
    /// returning, for a command that goes on running (the live player) after reading.
    static func reading<T>(_ path: String?, _ body: (InputSource) throws(CommandLineError) -> T)
        throws(CommandLineError) -> T
    {
        try body(InputSource(path: path))
    }

    /// Reads up to `count` bytes into `buffer` (appending); returns 0 at end of input.
    func read(into buffer: inout [UInt8], count: Int = 1 << 16) throws(CommandLineError) -> Int {
        let old = buffer.count
        // Geometric growth: reserving just `old + count` would copy the whole buffer on
        // every read, quadratic in the input.
        if buffer.capacity < old + count { buffer.reserveCapacity(max(old + count, buffer.capacity * 2)) }
        buffer.append(contentsOf: repeatElement(0, count: count))
        let result = buffer.withUnsafeMutableBytes { raw in readRetrying(into: raw.baseAddress! + old, count: count) }
        buffer.removeLast(count - max(result, 0))
        return try checked(result)
    }

    /// Reads up to `buffer.count` bytes into `buffer` from its start, over what it held;
    /// returns how many, 0 at end of input.
    func read(intoWhole buffer: inout [UInt8]) throws(CommandLineError) -> Int {
        try checked(buffer.withUnsafeMutableBytes { raw in readRetrying(into: raw.baseAddress!, count: raw.count) })
    }

    /// One `read(2)` of up to `count` bytes into `p`, again when a signal interrupts it:
    /// the bytes read, or minus the `errno` of a failure.
    private func readRetrying(into p: UnsafeMutableRawPointer, count: Int) -> Int {
        while true {
            let n = Glibc.read(fd, p, count)
            if n >= 0 { return n }
            if errno != EINTR { return -Int(errno) }
        }
    }

    /// The bytes of a ``readRetrying(into:count:)`` result, or its failure as an error naming
    /// the input.
    private func checked(_ result: Int) throws(CommandLineError) -> Int {
        guard result < 0 else { return result }
        throw .failure("\(name): cannot read: \(String(cString: strerror(Int32(-result))))")
    }

    /// Reads the whole input.
    func readAll() throws(CommandLineError) -> [UInt8] {
        var all: [UInt8] = []
        // A file's size is known: room for it and one more read, so that the buffer is
        // never copied into a bigger one (which would hold the input twice over, and
        // leave it in room for twice its size).
        var st = stat()
        if fstat(fd, &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG && st.st_size > 0 {
            all.reserveCapacity(Int(st.st_size) + (1 << 16))
        }
        while try read(into: &all) > 0 {}
        return all
    }

    /// Calls `body` with each line (without its `\n`, a trailing `\r` kept) and its
    /// 1-based number, holding at most one line and one read buffer in memory. The line's
    /// bytes are valid only during the call: a pointer, not a slice, so that handing one
    /// out costs no reference count on the buffer.
    func forEachLine(
        _ body: (UnsafeBufferPointer<UInt8>, Int) throws(CommandLineError) -> Void
    ) throws(CommandLineError) {
        var pending: [UInt8] = []
        var lineNumber = 0
        // One buffer for every read, which read(2) fills in place: no zeros written
        // into it first each time, as appending to an emptied buffer does.
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = try read(intoWhole: &chunk)
            if n == 0 { break }
            try chunk.withUnsafeBufferPointer { (chunk) throws(CommandLineError) in
                let base = chunk.baseAddress!
                var start = 0
                while start < n, let hit = memchr(base + start, 0x0A, n - start) {
                    let nl = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                    lineNumber += 1
                    if pending.isEmpty {
                        try body(UnsafeBufferPointer(start: base + start, count: nl - start), lineNumber)
                    } else {
                        pending.append(contentsOf: UnsafeBufferPointer(start: base + start, count: nl - start))
                        try pending.withUnsafeBufferPointer { (line) throws(CommandLineError) in
                            try body(line, lineNumber)
                        }
                        pending.removeAll(keepingCapacity: true)
                    }
                    start = nl + 1
                }
                pending.append(contentsOf: UnsafeBufferPointer(start: base + start, count: n - start))
            }
        }
        if !pending.isEmpty {
            lineNumber += 1
            try pending.withUnsafeBufferPointer { (line) throws(CommandLineError) in try body(line, lineNumber) }
        }
    }
}
