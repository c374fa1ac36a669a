import SpoilerRender
import Testing

/// The reader's glide back to the top: the ease-in-out curve and the rows it gives.
@Suite struct ScrollAnimationTests {
    @Test func theCurveStartsAndEndsExactlyAndIsSymmetric() {
        #expect(ScrollAnimation.easeInOut(0) == 0)
        #expect(ScrollAnimation.easeInOut(1) == 1)
        #expect(ScrollAnimation.easeInOut(0.5) == 0.5)
        #expect(ScrollAnimation.easeInOut(-3) == 0 && ScrollAnimation.easeInOut(9) == 1)
        for i in 0...100 {
            let t = Double(i) / 100
            #expect(abs(ScrollAnimation.easeInOut(1 - t) - (1 - ScrollAnimation.easeInOut(t))) < 1e-12)
        }
    }

    @Test func theCurveRisesMonotonicallySlowAtTheEndsFastInTheMiddle() {
        var previous = 0.0
        for i in 1...1000 {
            let v = ScrollAnimation.easeInOut(Double(i) / 1000)
            #expect(v >= previous)
            previous = v
        }
        // Ease in: the first tenth of the time covers far less than a tenth of the way;
        // ease out likewise at the end; the middle tenth covers much more than a tenth.
        #expect(ScrollAnimation.easeInOut(0.1) < 0.01)
        #expect(ScrollAnimation.easeInOut(0.9) > 0.99)
        #expect(ScrollAnimation.easeInOut(0.55) - ScrollAnimation.easeInOut(0.45) > 0.14)
    }

    @Test func rowsGlideFromTheStartRowToExactlyTheTopInAboutASecondAndAHalf() {
        let a = ScrollAnimation(from: 120, to: 0, start: 10)
        #expect(a.duration == 1.5)
        #expect(a.row(at: 9) == 120 && a.row(at: 10) == 120)
        #expect(a.row(at: 10.75) == 60)
        #expect(!a.isFinished(at: 11.49))
        #expect(a.row(at: 11.49) == 1, "rounded away from the top until the end")
        #expect(a.row(at: 10.01) == 120, "rounded away from the top at the start")
        #expect(a.isFinished(at: 11.5))
        #expect(a.position(at: 11.5) == 0 && a.row(at: 11.5) == 0 && a.row(at: 100) == 0)
        // At 30 frames a second the rows never go back, move little at first and last.
        var rows: [Int] = []
        var t = 10.0
        while t <= 11.6 {
            rows.append(a.row(at: t))
            t += 1.0 / 30
        }
        for (x, y) in zip(rows, rows.dropFirst()) { #expect(y <= x) }
        #expect(rows[0] - rows[3] < 3, "slow start: \(rows.prefix(4))")
        #expect(rows[21] - rows[24] > 15, "fast middle: \(rows[21...24])")
        #expect(rows.last == 0)
    }

    @Test func rowsGlideDownwardsToo() {
        let a = ScrollAnimation(from: 0, to: 10, start: 0, duration: 1)
        #expect(a.row(at: 0.5) == 5 && a.row(at: 0.99) == 9 && a.row(at: 1) == 10)
        #expect(a.row(at: 0.01) == 0)
    }

    @Test func aZeroDurationDoesNotDivideByZero() {
        let a = ScrollAnimation(from: 5, to: 0, start: 0, duration: 0)
        #expect(a.position(at: 0).isFinite)
        #expect(a.row(at: 1) == 0)
    }
}
