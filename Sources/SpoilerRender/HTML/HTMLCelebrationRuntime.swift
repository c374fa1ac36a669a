// swift-format-ignore-file
// (The script is JavaScript in a raw string, laid out as JavaScript.)
import SpoilerEffect

/// The page's celebration (``HTMLOptions/celebration``): script that ``HTMLRenderer``
/// puts into the runtime (``HTMLRuntime/celebrationSlot``) only when a page asks for it,
/// so a page without it stays as small as before.
///
/// It defines the runtime's `confetti` as `{ start, frame }`. The runtime calls `start()`
/// when the reveal of the message's last hidden word begins and `frame(dt)` on each of its
/// animation frames, which keep running while `frame` returns true. `start` lays a canvas
/// over the whole window (fixed, above everything, letting clicks through); the preset's
/// cells are born along a line just below the window's top edge, as wide as the window,
/// for ``Celebration/emissionSeconds`` at the preset's birth rate per
/// ``Celebration/widthPerBirthRate`` px of width (up to ``Celebration/maxBirthWidth``), as
/// ``Celebration`` does; each piece falls,
/// spins and shrinks as its cell says until its lifetime ends, it shrinks to nothing or it
/// has left the window. Then the canvas is removed, `frame` returns false and the page's
/// animation stops (the message element's `spoilerkitConfetti` is the number of pieces
/// alive, 0 when there is none). With reduced motion (`HTMLOptions/reducedMotion` or the
/// browser's `prefers-reduced-motion: reduce`) there is no confetti at all. The pieces
/// come from the page's seed, through a generator of their own.
enum HTMLCelebrationRuntime {
    /// The script, in the runtime's scope (it uses `still`, `generator`, `clamp`,
    /// `overLife`, `shape`, `STEP` and `config.celebration`, a preset as the runtime's).
    static let script = #"""
	// The celebration: confetti over the window when the last hidden word is revealed.
	var confetti = still ? null : (function (emitter) {
		var cells = emitter.emitterCells, EMIT = \#(Celebration.emissionSeconds), PER = \#(Celebration.widthPerBirthRate), MAXW = \#(Celebration.maxBirthWidth);
		var rand = generator(config.seed ^ 0x5eedc0f), party = null, top = 0;
		// A piece born this far below the edge is whole inside the window.
		cells.forEach(function (c) { top = Math.max(top, 0.75 * c.contentsSize * Math.max(c.scale + c.scaleRange, 0)); });
		Object.defineProperty(root, "spoilerkitConfetti", { get: function () { return party ? party.ps.length : 0; } });
		function start() {
			if (party) return;
			var canvas = document.body.appendChild(document.createElement("canvas"));
			canvas.className = "sk-confetti";
			canvas.setAttribute("aria-hidden", "true");
			canvas.style.cssText = "position:fixed;left:0;top:0;pointer-events:none;z-index:2147483647";
			party = { canvas: canvas, ctx: canvas.getContext("2d"), ps: [], debt: cells.map(function () { return 0; }),
				age: 0, clock: 0, w: 0, h: 0 };
		}
		function born(c, ci) {
			var life = (c.lifetime + c.lifetimeRange * (2 * rand() - 1)) * emitter.lifetime, x = rand() * party.w;
			if (!(life > 0)) return;
			var speed = c.velocity + c.velocityRange * (2 * rand() - 1);
			var angle = -Math.PI / 2 + c.emissionLongitude + (rand() - 0.5) * c.emissionRange;
			party.ps.push({
				x: x, y: Math.min(top, party.h), vx: speed * Math.cos(angle), vy: speed * Math.sin(angle), age: 0,
				life: life, a0: clamp(c.alpha + c.alphaRange * (2 * rand() - 1), 0, 1),
				scale: Math.max(0, c.scale + c.scaleRange * (2 * rand() - 1)),
				spin: c.spin + c.spinRange * (2 * rand() - 1), color: c.color, cell: ci
			});
		}
		function step(dt) {
			var ps = party.ps, w = party.w, h = party.h;
			for (var i = ps.length - 1; i >= 0; i--) {
				var p = ps[i], c = cells[p.cell];
				p.age += dt;
				p.vx += c.xAcceleration * dt;
				p.vy += c.yAcceleration * dt;
				p.x += p.vx * dt;
				p.y += p.vy * dt;
				var r = 0.75 * c.contentsSize * Math.max(p.scale + c.scaleSpeed * p.age, 0);
				var gone = p.age >= p.life || r <= 0 || (p.y - r > h && p.vy >= 0 && c.yAcceleration >= 0) ||
					(p.y + r < 0 && p.vy <= 0 && c.yAcceleration <= 0) || (p.x - r > w && p.vx >= 0 && c.xAcceleration >= 0) ||
					(p.x + r < 0 && p.vx <= 0 && c.xAcceleration <= 0);
				if (gone) { ps[i] = ps[ps.length - 1]; ps.pop(); }
			}
			if (party.age < EMIT) cells.forEach(function (c, ci) {
				party.debt[ci] += c.birthRate * emitter.birthRate * (Math.min(w, MAXW) / PER) * dt;
				while (party.debt[ci] >= 1) { party.debt[ci] -= 1; born(c, ci); }
			});
			party.age += dt;
		}
		function frame(dt) {
			if (!party) return false;
			var ratio = devicePixelRatio || 1, ctx = party.ctx;
			if (party.w !== innerWidth || party.h !== innerHeight) {
				party.w = innerWidth;
				party.h = innerHeight;
				party.canvas.width = Math.ceil(party.w * ratio);
				party.canvas.height = Math.ceil(party.h * ratio);
				party.canvas.style.width = party.w + "px";
				party.canvas.style.height = party.h + "px";
				ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
			}
			for (party.clock += dt; party.clock >= STEP; party.clock -= STEP) step(STEP);
			if (party.age >= EMIT && !party.ps.length) { party.canvas.remove(); party = null; return false; }
			ctx.clearRect(0, 0, party.w, party.h);
			party.ps.forEach(function (p) {
				var c = cells[p.cell], size = c.contentsSize * Math.max(0, p.scale + c.scaleSpeed * p.age);
				var a = clamp(p.a0 + c.alphaSpeed * p.age + overLife(c.alphaOverLife, p.age / p.life), 0, 1);
				if (a <= 0 || size <= 0) return;
				ctx.globalAlpha = a;
				ctx.fillStyle = p.color;
				shape(ctx, c.contents, p, size);
			});
			ctx.globalAlpha = 1;
			return true;
		}
		return { start: start, frame: frame };
	})(config.celebration);

"""#
}
