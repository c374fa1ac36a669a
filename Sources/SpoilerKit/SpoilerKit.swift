// SpoilerKit: one import for the whole toolkit.
//
// Every module is re-exported, so `import SpoilerKit` gives the parsers, the layout engine,
// the particle effect, the renderers and the terminal layer, plus the few high-level entry
// points in this module (`Message(parsing:as:)`, `Message.formatted(as:)`,
// `Message.layout(width:font:)` and `SpoilerView`). The per-module products stay for
// programs that want less.
@_exported import SpoilerCore
@_exported import SpoilerEffect
@_exported import SpoilerLayout
@_exported import SpoilerParser
@_exported import SpoilerRender
@_exported import SpoilerTerminal
