import Foundation
import SpoilerCore
import Testing

/// ``FrameRate``: one type for every frame rate, checked once.
@Suite("FrameRate")
struct FrameRateTests {
    @Test("A rate is 1 to 1000 frames a second, from a literal, a user's number or a Double")
    func validation() {
        let literal: FrameRate = 24
        #expect(literal.framesPerSecond == 24)
        #expect(FrameRate(validating: 0) == nil)
        #expect(FrameRate(validating: 1001) == nil)
        #expect(FrameRate(validating: 1000)?.framesPerSecond == 1000)
        #expect(FrameRate(validating: 1)?.framesPerSecond == 1)
        #expect(FrameRate(clamping: 29.6).framesPerSecond == 30)
        #expect(FrameRate(clamping: 0.2).framesPerSecond == 1)
        #expect(FrameRate(clamping: 5000).framesPerSecond == 1000)
        #expect(FrameRate(clamping: .nan) == .standard)
        #expect(FrameRate.standard.framesPerSecond == 30)
        #expect(FrameRate(10) < FrameRate(30))
        #expect("\(FrameRate(60))" == "60 fps")
    }

    @Test("Frame k is at k / fps seconds; a duration holds round(duration × fps) frames")
    func frameTimes() {
        let rate: FrameRate = 30
        #expect(rate.time(ofFrame: 3) == 0.1)
        #expect(rate.frameDuration == 1.0 / 30)
        #expect(rate.frames(in: 2) == 60)
        #expect(rate.frames(in: 0.05) == 2)
        #expect(rate.frames(in: 0.05, rounding: .down) == 1)
        #expect(rate.frames(in: -1) == 0)
        #expect(rate.frames(in: .infinity) == 0)
    }

    @Test("A rate is written as its number, and a number out of range is not read")
    func codable() throws {
        let data = try JSONEncoder().encode([FrameRate(12)])
        #expect(String(decoding: data, as: UTF8.self) == "[12]")
        #expect(try JSONDecoder().decode([FrameRate].self, from: data) == [12])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([FrameRate].self, from: Data("[0]".utf8)) }
    }
}
