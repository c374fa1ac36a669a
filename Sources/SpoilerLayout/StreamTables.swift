/// What ``MonoGeometryStream`` reads from the process's lazily made globals, read once for
/// all messages: each global costs a `swift_once` call wherever it is read, and a line
/// filter lays out a message per line.
struct StreamTables: @unchecked Sendable {
    /// ``SmallDecimals/table``.
    let digits: UnsafePointer<UInt32>
    /// ``TwoByteLetters/holdInTable``.
    let twoByteLetters: Bool
    /// ``WideScalars/holdInTable``.
    let wideScalars: Bool
    /// ``GraphemeScanner/BMPInfo/table``, copied to memory of its own that is never freed,
    /// so that it is read through a pointer with no array access.
    let graphemeInfo: UnsafeBufferPointer<UInt8>

    /// The tables, made on first use.
    static let shared: StreamTables = {
        let info = GraphemeScanner.BMPInfo.table
        let copy = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: info.count)
        _ = copy.initialize(from: info)
        return StreamTables(
            digits: SmallDecimals.table, twoByteLetters: TwoByteLetters.holdInTable,
            wideScalars: WideScalars.holdInTable, graphemeInfo: UnsafeBufferPointer(copy))
    }()
}
