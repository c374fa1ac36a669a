// spoiler-bench: release-mode benchmarks with in-run reference figures (SPEC §8).
print("spoiler-bench: no stages yet")
