// A bot backend through the public API only: each incoming MarkdownV2 message becomes
// Telegram entities (UTF-16 offsets, for sendMessage) and HTML (for a web view), many
// messages at once in a task group, answered in the order they came.
//
//   swift run BotBackend [COUNT]      (default 2000 messages)
//
// Prints the first few answers, the one that failed with its position, and a summary.
import SpoilerKit

/// What the backend answers for one message.
struct Answer: Sendable {
    var index: Int
    var result: Result<(message: Message, html: String), ParseError>
}

/// The incoming messages: chat-like MarkdownV2, every 500th one malformed.
func incoming(_ count: Int) -> [String] {
    let templates = [
        "*Episode {n}* is out\\! ||The butler did it||\\.",
        "Reply to _Ana_: ||no spoilers|| please, I'm on `S0{n}`",
        "[Trailer](https://example.org/{n}) — __new__ ||ending \\#{n}||",
        ">quoted ||hidden {n}||\nand a ~strike~",
    ]
    return (0..<count).map { i in
        if i % 500 == 499 { return "broken ||spoiler \(i)" }
        return templates[i % templates.count].replacingAll("{n}", with: String(i))
    }
}

extension String {
    func replacingAll(_ target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}

let count = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 2000
let messages = incoming(count)

let answers = await withTaskGroup(of: Answer.self, returning: [Answer].self) { group in
    for (index, text) in messages.enumerated() {
        group.addTask {
            let result = Result { () throws(ParseError) -> (message: Message, html: String) in
                let message = try Message(parsing: text, as: .markdownV2)
                return (message, message.formatted(as: .html))
            }
            return Answer(index: index, result: result)
        }
    }
    var all: [Answer] = []
    for await answer in group { all.append(answer) }
    return all.sorted { $0.index < $1.index }
}

var failures = 0
var spoilers = 0
for answer in answers {
    switch answer.result {
    case .success(let (message, html)):
        spoilers += message.entities.filter { $0.type == .spoiler }.count
        if answer.index < 4 {
            print("#\(answer.index) json \(message.formatted(as: .json))")
            print("#\(answer.index) html \(html)")
        }
    case .failure(let error):
        failures += 1
        if failures == 1 { print("#\(answer.index) error \(error.located(in: "message \(answer.index)"))") }
    }
}
print("\(answers.count) messages, \(answers.count - failures) answered, \(failures) rejected, \(spoilers) spoilers")
