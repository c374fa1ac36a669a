import Foundation
import SpoilerCore
import SpoilerParser
import SpoilerTestSupport
import Testing

/// The real `cmark-gfm` program, or nil when it is not installed; `SPOILER_CMARK_GFM`
/// names the program to use instead. A test that needs it records an issue (fails)
/// when it is missing, rather than passing without having compared anything.
let cmarkGFMProgram: URL? = {
    let candidates =
        ProcessInfo.processInfo.environment["SPOILER_CMARK_GFM"].map { [$0] }
        ?? ["/usr/bin/cmark-gfm", "/usr/local/bin/cmark-gfm"]
    return candidates.map(URL.init(fileURLWithPath:)).first { FileManager.default.isExecutableFile(atPath: $0.path) }
}()

/// The GFM extension flags the compatibility promise is made for.
let gfmExtensionFlags = ["-e", "table", "-e", "strikethrough", "-e", "autolink", "-e", "tagfilter", "-e", "tasklist"]

/// The options a corpus document is rendered with: the default (`--validate-utf8`) for
/// every document, and one more set chosen by its index so that every option is covered.
func corpusOptionSets(_ index: Int) -> [(MarkdownOptions, [String])] {
    let extra: [(MarkdownOptions, [String])] = [
        ([], []),
        ([.smart, .validateUTF8], ["--smart", "--validate-utf8"]),
        ([.hardBreaks, .unsafe], ["--hardbreaks", "--unsafe"]),
        ([.noBreaks, .githubPreLang, .validateUTF8], ["--nobreaks", "--github-pre-lang", "--validate-utf8"]),
        ([.sourcePositions, .fullInfoString], ["--sourcepos", "--full-info-string"]),
        (
            [.strikethroughDoubleTilde, .tablePreferStyleAttributes, .unsafe],
            ["--strikethrough-double-tilde", "--table-prefer-style-attributes", "--unsafe"]
        ),
    ]
    return [(.default, ["--validate-utf8"]), extra[index % extra.count]]
}

@Suite struct MarkdownCorpusTests {
    @Test func corpusIsLargeAndFreeOfSpoilerSyntax() throws {
        let docs = MarkdownCorpus.documents()
        #expect(docs.count >= 300)
        for doc in docs {
            #expect(!doc.windowsContain([0x7C, 0x7C]))
        }
    }

    /// The files under Fixtures/markdown/corpus are exactly the generated documents.
    @Test func committedCorpusIsTheGeneratedOne() throws {
        let docs = MarkdownCorpus.documents()
        let record = ProcessInfo.processInfo.environment["SPOILER_RECORD_FIXTURES"] == "1"
        if record {
            try FileManager.default.createDirectory(at: MarkdownCorpus.folder, withIntermediateDirectories: true)
        }
        var mismatches: [String] = []
        for (i, doc) in docs.enumerated() {
            let url = MarkdownCorpus.folder.appendingPathComponent(MarkdownCorpus.fileName(i))
            let committed = try? Data(contentsOf: url)
            if committed != Data(doc) {
                mismatches.append(MarkdownCorpus.fileName(i))
                if record { try Data(doc).write(to: url) }
            }
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: MarkdownCorpus.folder.path)
            .filter { $0.hasSuffix(".md") }
        #expect(files.count == docs.count, "corpus files on disk: \(files.count), generated: \(docs.count)")
        #expect(mismatches.isEmpty, "corpus files differ from the generator: \(mismatches.prefix(10))")
    }
}

@Suite struct MarkdownCompatibilityTests {
    static let corpusFiles: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: MarkdownCorpus.folder.path)) ?? []
        return names.filter { $0.hasSuffix(".md") }.sorted()
    }()

    @Test func corpusIsPresent() {
        #expect(Self.corpusFiles.count >= 300)
    }

    /// Our HTML equals the `cmark-gfm` program's, byte for byte, with the same options.
    @Test(arguments: corpusFiles)
    func htmlMatchesCmarkGFM(file: String) throws {
        guard let program = cmarkGFMProgram else {
            Issue.record("cmark-gfm is not installed (Debian package cmark-gfm): the comparison cannot run")
            return
        }
        let data = try Data(contentsOf: MarkdownCorpus.folder.appendingPathComponent(file))
        let index = Int(file.prefix(3)) ?? 0
        for (options, flags) in corpusOptionSets(index) {
            let expected = try runProgram(program, flags + gfmExtensionFlags, stdin: data)
            #expect(expected.status == 0)
            let ours = MarkdownRenderer.html(Array(data), options: options)
            if Data(ours) != expected.stdout {
                Issue.record(
                    "\(file) with \(flags): differs from cmark-gfm\n\(lineDiff(expected: expected.out, actual: String(decoding: ours, as: UTF8.self)))"
                )
            }
        }
    }

    /// The command line gives the same bytes: `spoiler convert --from markdown --to html`.
    @Test func commandLineMatchesCmarkGFM() throws {
        guard let program = cmarkGFMProgram else {
            Issue.record("cmark-gfm is not installed (Debian package cmark-gfm): the comparison cannot run")
            return
        }
        for file in Self.corpusFiles.prefix(40) {
            let data = try Data(contentsOf: MarkdownCorpus.folder.appendingPathComponent(file))
            let expected = try runProgram(program, ["--validate-utf8"] + gfmExtensionFlags, stdin: data)
            let ours = try runSpoiler(["convert", "--from", "markdown", "--to", "html"], stdin: data)
            if let bad = UTF8Validation.firstInvalidOffset(in: Array(data)) {
                // Invalid UTF-8 is an error on the command line, as in every format.
                #expect(ours.status == 1, "\(file)")
                #expect(ours.err.contains("Invalid UTF-8 at byte offset \(bad)"), "\(file)")
                continue
            }
            #expect(ours.status == 0)
            #expect(ours.stdout == expected.stdout, "\(file)")
        }
    }

    /// The in-process reference (plain cmark-gfm, no spoiler extension) is the program.
    @Test func referenceRendererIsTheProgram() throws {
        guard let program = cmarkGFMProgram else {
            Issue.record("cmark-gfm is not installed (Debian package cmark-gfm): the comparison cannot run")
            return
        }
        for file in Self.corpusFiles.prefix(20) {
            let data = try Data(contentsOf: MarkdownCorpus.folder.appendingPathComponent(file))
            let expected = try runProgram(program, ["--validate-utf8"] + gfmExtensionFlags, stdin: data)
            #expect(Data(MarkdownRenderer.referenceHTML(Array(data))) == expected.stdout, "\(file)")
        }
    }
}

extension Array where Element == UInt8 {
    func windowsContain(_ needle: [UInt8]) -> Bool {
        guard count >= needle.count else { return false }
        for i in 0...(count - needle.count) where self[i..<(i + needle.count)].elementsEqual(needle) { return true }
        return false
    }
}
