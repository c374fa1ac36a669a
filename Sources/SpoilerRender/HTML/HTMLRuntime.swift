// swift-format-ignore-file
// (The script is JavaScript in a raw string, laid out as JavaScript.)
/// The page's runtime: a small script of SpoilerKit's own, readable as written here
/// (indented with tabs, which keeps a one-line message's page within 16 KB).
///
/// It is one function expression, `(root, config) => void`, called once per message
/// element. `config` holds the seed, the density, the reveal scope, `rehideAfter`,
/// `reducedMotion`, the preset (``Preset/json``) and the hidden words (Base64 UTF-8
/// text, or null when redacted; the grapheme count; the spoiler's index). For every
/// `.sk-word` placeholder it measures the word's text in the placeholder's own font and
/// gives the placeholder that width (so the box keeps its size), lays a canvas over it
/// and runs the preset's particles there: births ∝ graphemes inside the box shrunk by the
/// inset, velocity, acceleration, alpha over life, confinement. A click, or Enter or
/// Space on a focused spoiler, starts Telegram's wave: after 0.1 s a circle grows with
/// ease-in-out over 0.55 s, the text (only now put in the DOM) shows inside 0.7 of its
/// radius, feathered to 0.95, and the dust is pushed away for 0.8 s. The animation runs
/// only while the page is visible and a word with dust is on screen (the message element's
/// read-only `spoilerkitFrames` counts the frames it has run);
/// `prefers-reduced-motion: reduce` gives a still dot pattern and instant reveals.
///
/// With ``HTMLOptions/celebration``, ``HTMLRenderer`` puts ``HTMLCelebrationRuntime``'s
/// script in place of ``celebrationSlot``; otherwise `confetti` stays null and costs nothing.
enum HTMLRuntime {
    /// The line of ``script`` that a page with a celebration replaces with
    /// ``HTMLCelebrationRuntime/script``.
    static let celebrationSlot = "\tvar confetti = null; // the celebration, if asked for\n"

    /// The script.
    static let script = #"""
(function (root, config) {
	"use strict";
	// SpoilerKit's dust runtime: the preset's particles on a canvas over each hidden word.
	var T = { delay: 0.1, growth: 0.55, push: 0.8, hide: 0.4, solid: 0.7, feather: 0.95 };
	var PAD = 16; // how far (CSS px) a canvas reaches past its word, for pushed dust
	var STEP = 1 / 60; // the simulation's fixed step, seconds
	var emitter = config.preset, cells = emitter.emitterCells, rand = generator(config.seed);
	var still = config.reducedMotion || matchMedia("(prefers-reduced-motion: reduce)").matches;
	var words = [], running = false, last = 0, frames = 0;
	var confetti = null; // the celebration, if asked for
	// A read-only count of the animation frames drawn, for tests and curious embedders.
	Object.defineProperty(root, "spoilerkitFrames", { get: function () { return frames; } });

	// mulberry32: a small seeded generator, so a seed gives the same dust every time.
	function generator(seed) {
		var a = seed >>> 0;
		return function () {
			a = (a + 0x6d2b79f5) >>> 0;
			var t = Math.imul(a ^ (a >>> 15), a | 1);
			t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
			return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
		};
	}
	function clamp(v, lo, hi) { return v < lo ? lo : v > hi ? hi : v; }
	function ease(p) {
		p = clamp(p, 0, 1);
		return p < 0.5 ? 4 * p * p * p : 1 - Math.pow(-2 * p + 2, 3) / 2;
	}
	function decode(b64) {
		return new TextDecoder().decode(Uint8Array.from(atob(b64), function (c) { return c.charCodeAt(0); }));
	}
	function now() { return performance.now() / 1000; }
	function overLife(keys, f) {
		if (!keys.length) return 0;
		if (keys.length === 1) return keys[0];
		var x = clamp(f, 0, 1) * (keys.length - 1), i = Math.min(Math.floor(x), keys.length - 2);
		return keys[i] + (keys[i + 1] - keys[i]) * (x - i);
	}

	// The reveal circle's radius at time t, or null while the word is hidden.
	function radius(r, t) {
		if (!r || t < r.start) return null;
		var h = r.hideAt !== null && t >= r.hideAt, p = (t - r.hideAt) / T.hide;
		if (h && (r.instant || p >= 1)) return null;
		var grown = r.instant ? r.final : r.final * ease(((h ? r.hideAt : t) - r.start - T.delay) / T.growth);
		return h ? grown * ease(1 - p) : grown;
	}
	function visibility(r, rad, x, y) {
		if (rad === null || rad <= 0) return 0;
		var d = Math.hypot(x - r.x, y - r.y), solid = T.solid * rad, feather = T.feather * rad;
		return d <= solid ? 1 : d >= feather ? 0 : (feather - d) / (feather - solid);
	}

	function setUp() {
		// The canvases live in a layer of their own, out of the message's text and copy.
		var layer = document.createElement("div"), els = root.querySelectorAll(".sk-word");
		layer.className = "sk-layer";
		layer.setAttribute("aria-hidden", "true");
		root.appendChild(layer);
		for (var i = 0; i < els.length; i++) {
			var el = els[i], data = config.words[+el.dataset.w];
			var canvas = layer.appendChild(document.createElement("canvas"));
			words.push({
				el: el, span: el.firstChild, canvas: canvas, ctx: canvas.getContext("2d"), spoiler: data.s,
				text: data.t === null ? null : decode(data.t), graphemes: data.g,
				particles: [], debt: 0, reveal: null, onScreen: true, w: 0, h: 0, done: false
			});
		}
		measure();
		for (var k = 0; k < words.length; k++) seed(words[k]);
		var spoilers = root.querySelectorAll(".sk-spoiler");
		for (var s = 0; s < spoilers.length; s++) listen(spoilers[s]);
		var io = new IntersectionObserver(function (entries) {
			entries.forEach(function (e) { e.target.sk.onScreen = e.isIntersecting; });
			wake();
		});
		words.forEach(function (w) { w.el.sk = w; io.observe(w.el); });
		document.addEventListener("visibilitychange", wake);
		window.addEventListener("resize", function () { measure(); wake(); });
		document.fonts.ready.then(function () { measure(); wake(); });
		wake();
	}

	// Gives each placeholder the width its word's text takes in its own font, so the
	// box keeps its size before and after the reveal; sizes the canvases.
	function measure() {
		var probe = document.createElement("canvas").getContext("2d"), ratio = devicePixelRatio || 1;
		words.forEach(function (w) {
			probe.font = getComputedStyle(w.el).font;
			w.el.style.width = Math.ceil(probe.measureText(w.text === null ? "0".repeat(w.graphemes) : w.text).width) + "px";
			w.w = w.el.offsetWidth;
			w.h = w.el.offsetHeight;
			[["width", w.w], ["height", w.h]].forEach(function (d) {
				w.canvas[d[0]] = Math.ceil((d[1] + 2 * PAD) * ratio);
				w.canvas.style[d[0]] = d[1] + 2 * PAD + "px";
			});
			w.ctx.setTransform(ratio, 0, 0, ratio, PAD * ratio, PAD * ratio);
			if (still) stillPattern(w);
		});
		place();
	}
	// Lays each canvas over its word (the layer's origin is the message element's).
	function place() {
		var o = root.getBoundingClientRect();
		words.forEach(function (w) {
			var b = w.el.getBoundingClientRect();
			w.canvas.style.left = b.left - o.left - PAD + "px";
			w.canvas.style.top = b.top - o.top - PAD + "px";
		});
	}

	// A settled cloud: the dust as it is after a lifetime of births.
	function seed(w) {
		w.particles = [];
		if (still) return stillPattern(w);
		var longest = 0;
		cells.forEach(function (c) { longest = Math.max(longest, (c.lifetime + c.lifetimeRange) * emitter.lifetime); });
		for (var t = 0; t < Math.min(longest, 10); t += STEP) step(w, STEP, 0);
	}

	// Reduced motion: one still dot per 4 px² of the word, from a fixed seed.
	function stillPattern(w) {
		var r = generator(7), c = cells[0];
		if (!c) return;
		var n = Math.round((w.w * w.h) / 4);
		for (var i = 0; i < n; i++) {
			w.particles.push({ x: r() * w.w, y: r() * w.h, age: 0, life: Infinity, a0: 1, scale: 1, color: c.color,
				cell: 0, born: -Infinity });
		}
	}

	function spawn(w, c, ci, t) {
		var inset = emitter.inset, shape = emitter.emitterShape;
		var x0 = inset, y0 = inset, ww = Math.max(w.w - 2 * inset, 0), hh = Math.max(w.h - 2 * inset, 0);
		var u = rand(), v = rand(), x, y, natural = 0;
		if (shape === "point") { x = w.w / 2; y = w.h / 2; }
		else if (shape === "line") { x = x0 + u * ww; y = y0; natural = -Math.PI / 2; }
		else if (shape === "circle") {
			var rr = Math.min(ww, hh) / 2 * Math.sqrt(v), an = u * 2 * Math.PI;
			x = w.w / 2 + rr * Math.cos(an); y = w.h / 2 + rr * Math.sin(an);
		} else { x = x0 + u * ww; y = y0 + v * hh; }
		if (w.reveal && visibility(w.reveal, radius(w.reveal, t), x, y) > 0) return;
		var life = (c.lifetime + c.lifetimeRange * (2 * rand() - 1)) * emitter.lifetime;
		if (!(life > 0)) return;
		var speed = c.velocity + c.velocityRange * (2 * rand() - 1);
		var angle = natural + c.emissionLongitude + (rand() - 0.5) * c.emissionRange;
		w.particles.push({
			x: x, y: y, vx: speed * Math.cos(angle), vy: speed * Math.sin(angle), age: 0, life: life,
			a0: clamp(c.alpha + c.alphaRange * (2 * rand() - 1), 0, 1),
			scale: Math.max(0, c.scale + c.scaleRange * (2 * rand() - 1)),
			spin: c.spin + c.spinRange * (2 * rand() - 1), color: c.color, cell: ci, born: t
		});
	}

	// One fixed step of the word's dust at time t (seconds of the page clock).
	function step(w, dt, t) {
		var r = w.reveal, rad = radius(r, t), free = rad !== null;
		var pushing = free && t >= r.start && t < r.start + T.push;
		var ox = pushing ? r.x : 0, oy = pushing ? r.y : 0;
		var ps = w.particles;
		for (var i = ps.length - 1; i >= 0; i--) {
			var p = ps[i], c = cells[p.cell];
			p.age += dt;
			if (p.age >= p.life) { ps[i] = ps[ps.length - 1]; ps.pop(); continue; }
			if (pushing) {
				var dx = p.x - ox, dy = p.y - oy, d = Math.max(Math.hypot(dx, dy), 0.5);
				var s = 4 * Math.max(r.final - d, 0) + 20;
				p.vx += (s * dx / d) * dt;
				p.vy += (s * dy / d) * dt;
			}
			p.vx += c.xAcceleration * dt;
			p.vy += c.yAcceleration * dt;
			p.x += p.vx * dt;
			p.y += p.vy * dt;
			if (!free) confine(p, w);
		}
		if (r && rad !== null && r.hideAt === null && rad * T.solid >= r.cover) return; // revealed: no births
		cells.forEach(function (c, ci) {
			var rate = c.birthRate * emitter.birthRate * w.graphemes * config.density / 20;
			w.debt += rate * dt;
			while (w.debt >= 1) { w.debt -= 1; spawn(w, c, ci, t); }
		});
	}
	function confine(p, w) {
		if (emitter.confinement === "bounce") {
			if (p.x < 0) { p.x = -p.x; p.vx = -p.vx; } else if (p.x > w.w) { p.x = 2 * w.w - p.x; p.vx = -p.vx; }
			if (p.y < 0) { p.y = -p.y; p.vy = -p.vy; } else if (p.y > w.h) { p.y = 2 * w.h - p.y; p.vy = -p.vy; }
			p.x = clamp(p.x, 0, w.w); p.y = clamp(p.y, 0, w.h);
		} else if (emitter.confinement === "wrap") {
			p.x = ((p.x % w.w) + w.w) % w.w; p.y = ((p.y % w.h) + w.h) % w.h;
		}
	}

	function draw(w, t) {
		var ctx = w.ctx, r = w.reveal, rad = radius(r, t);
		ctx.clearRect(-PAD, -PAD, w.w + 2 * PAD, w.h + 2 * PAD);
		w.particles.forEach(function (p) {
			var c = cells[p.cell], a = p.a0;
			if (!still) a += c.alphaSpeed * p.age + overLife(c.alphaOverLife, p.age / p.life);
			a = clamp(a, 0, 1);
			if (rad !== null) {
				a *= 1 - visibility(r, rad, p.x, p.y);
				if (p.born < (r.hideAt === null ? Infinity : r.hideAt)) a *= 1 - clamp((t - r.start) / T.push, 0, 1);
			}
			if (a <= 0) return;
			var size = c.contentsSize * Math.max(0, p.scale + (still ? 0 : c.scaleSpeed * p.age));
			ctx.globalAlpha = a;
			ctx.fillStyle = p.color;
			shape(ctx, c.contents, p, size);
		});
		ctx.globalAlpha = 1;
	}
	// A dot, or a polygon, square or star turned by spin × age.
	function shape(ctx, contents, p, size) {
		if (contents === "dot") {
			if (size <= 1.5) ctx.fillRect(p.x - size / 2, p.y - size / 2, size, size);
			else { ctx.beginPath(); ctx.arc(p.x, p.y, size / 2, 0, 2 * Math.PI); ctx.fill(); }
			return;
		}
		ctx.save();
		ctx.translate(p.x, p.y);
		ctx.rotate(p.spin * p.age);
		ctx.beginPath();
		var n = { square: 4, star: 10 }[contents] || 6;
		for (var k = 0; k < n; k++) {
			var rr = (contents === "star" && k % 2 ? 0.4 : 1) * size / 2 * (n === 4 ? Math.SQRT2 : 1);
			var an = (n === 4 ? Math.PI / 4 : -Math.PI / 2) + (k * 2 * Math.PI) / n;
			ctx.lineTo(rr * Math.cos(an), rr * Math.sin(an));
		}
		ctx.fill();
		ctx.restore();
	}

	// The text under the wave: in the DOM only once the circle has grown past 0.
	function unveil(w, t) {
		var r = w.reveal, rad = radius(r, t);
		if (!r) return;
		if (rad === null || rad <= 0) {
			if (r.hideAt !== null && t >= r.hideAt) { conceal(w); return; }
			if (w.shown) setText(w, false);
			return;
		}
		if (!w.shown) setText(w, true);
		if (r.hideAt === null && rad * T.solid >= r.cover) {
			mask(w, "");
			if (!w.done) { w.done = true; w.particles = []; draw(w, t); settle(w); }
			return;
		}
		mask(w, "radial-gradient(circle " + rad + "px at " + r.x + "px " + r.y + "px, #000 " + T.solid * rad +
			"px, transparent " + T.feather * rad + "px)");
	}
	function setText(w, on) {
		w.shown = on;
		w.span.textContent = on ? w.text : "";
	}
	function conceal(w) {
		w.reveal = null;
		w.done = false;
		setText(w, false);
		mask(w, "");
		settle(w);
	}
	function mask(w, image) { w.span.style.maskImage = w.span.style.webkitMaskImage = image; }
	// Keeps each spoiler's role and name in step with its words.
	function settle(w) {
		var sp = w.el.closest(".sk-spoiler");
		var open = words.every(function (o) { return o.spoiler !== w.spoiler || o.done; });
		[["role", "button"], ["tabindex", "0"], ["aria-label", sp.dataset.label]].forEach(function (a) {
			if (open) sp.removeAttribute(a[0]); else sp.setAttribute(a[0], a[1]);
		});
		sp.classList.toggle("sk-open", open);
	}

	// Reveals the words the scope gives, with one wave from (cx, cy) in client pixels.
	function reveal(targets, cx, cy) {
		targets = targets.filter(function (w) { return w.text !== null && !w.reveal; });
		if (!targets.length) return;
		var t = now(), boxes = targets.map(function (w) { return w.el.getBoundingClientRect(); });
		// The distance from the click to a box's farthest corner.
		function reach(b) {
			return Math.hypot(Math.max(cx - b.left, b.right - cx), Math.max(cy - b.top, b.bottom - cy));
		}
		var far = Math.max.apply(null, boxes.map(reach));
		targets.forEach(function (w, i) {
			var b = boxes[i];
			w.reveal = { x: cx - b.left, y: cy - b.top, start: t, final: Math.max(far, 1) / T.solid, cover: reach(b),
				instant: still, hideAt: config.rehideAfter === null ? null : t + config.rehideAfter };
		});
		if (still) targets.forEach(function (w) { unveil(w, t); });
		if (confetti && words.every(function (o) { return o.reveal; })) confetti.start();
		wake();
	}
	function scopeOf(w) {
		if (config.scope === "message") return words.slice();
		if (config.scope === "word") return [w];
		return words.filter(function (o) { return o.spoiler === w.spoiler; });
	}
	function listen(sp) {
		var mine = words.filter(function (w) { return w.el.closest(".sk-spoiler") === sp; });
		sp.addEventListener("click", function (e) {
			var hit = e.target.closest(".sk-word");
			hit = hit ? hit.sk : mine.filter(function (w) { return !w.reveal; })[0];
			if (hit) reveal(scopeOf(hit), e.clientX, e.clientY);
		});
		sp.addEventListener("keydown", function (e) {
			if (e.key !== "Enter" && e.key !== " ") return;
			e.preventDefault();
			var next = mine.filter(function (w) { return !w.reveal; })[0];
			if (!next) return;
			var targets = scopeOf(next), b = (config.scope === "word" ? next.el : sp).getBoundingClientRect();
			reveal(targets, b.left + b.width / 2, b.top + b.height / 2);
		});
	}

	// The animation runs while the page shows and some word with dust is on screen.
	function wake() {
		if (!running && !document.hidden) { running = true; last = now(); requestAnimationFrame(frame); }
	}
	function frame() {
		var t = now(), dt = Math.min(t - last, 0.1), busy = false;
		last = t;
		if (document.hidden) { running = false; return; }
		frames++;
		place();
		words.forEach(function (w) {
			var moving = w.reveal || (!still && !w.done);
			if (!w.onScreen && !w.reveal) return;
			if (!still) for (w.clock = (w.clock || 0) + dt; w.clock >= STEP; w.clock -= STEP) step(w, STEP, t);
			unveil(w, t);
			if (!w.done || w.reveal) draw(w, t);
			if (moving && !w.done) busy = true;
			if (w.reveal && w.reveal.hideAt !== null) busy = true;
		});
		if (confetti && confetti.frame(dt)) busy = true;
		if (busy) requestAnimationFrame(frame); else running = false;
	}

	setUp();
	if (still) words.forEach(function (w) { draw(w, now()); });
})
"""#

    /// The style sheet, scoped to `.spoilerkit`.
    static let style = #"""
.spoilerkit{position:relative;white-space:pre-wrap;overflow-wrap:anywhere;font:16px/1.5 system-ui,sans-serif}
.spoilerkit .sk-spoiler{cursor:pointer;border-radius:4px}
.spoilerkit .sk-spoiler:focus-visible{outline:2px solid #5ea8ff;outline-offset:1px}
.spoilerkit .sk-spoiler.sk-open{cursor:auto}
.spoilerkit .sk-word{display:inline-block;white-space:pre}
.spoilerkit .sk-text{display:inline-block;width:100%}
.spoilerkit .sk-text:empty::before{content:"\200b"}
.spoilerkit .sk-layer,.spoilerkit .sk-layer canvas{position:absolute;left:0;top:0;pointer-events:none}
.spoilerkit code{font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-size:.9em}
"""#
}
