#!/usr/bin/env python3
"""The PySpark job: `spoiler parse --ndjson` over an NDJSON file with RDD.pipe, in local
mode, the binary shipped with --archives.

    spark-submit --master 'local[2]' --archives spoiler.tar.gz#spoiler-bin job.py IN OUT [PARTITIONS]

RDD.pipe starts the command with an empty environment (no PATH, no HOME), so the binary
is named by an absolute path: SparkFiles.get() of the archive's alias, where Spark
unpacked it (on YARN the alias is also a folder in the task's working directory, so
"./spoiler-bin/spoiler" works there too).
"""
import os
import sys

from pyspark import SparkContext, SparkFiles

def main():
    source, target = sys.argv[1], sys.argv[2]
    partitions = int(sys.argv[3]) if len(sys.argv) > 3 else 8
    sc = SparkContext(appName="spoiler-ndjson")
    sc.setLogLevel("ERROR")
    binary = os.path.join(SparkFiles.get("spoiler-bin"), "spoiler")
    # --errors-as-records: a bad line is an error record and the task still succeeds, so
    # checkCode=True fails the job only on a real failure (a binary that cannot start, a
    # write error). --quiet keeps the executors' stderr to one summary line per task.
    command = f"{binary} parse --ndjson --errors-as-records --quiet"
    lines = sc.textFile(source, minPartitions=partitions)
    parsed = lines.pipe(command, checkCode=True)
    # pipe keeps the order within each partition and the partitions keep theirs, and
    # spoiler writes one output line per input line (blank lines included), so the
    # output lines match the input lines one to one.
    with open(target, "w", encoding="utf-8", newline="\n") as out:
        for line in parsed.toLocalIterator():
            out.write(line + "\n")
    print(f"job: {lines.getNumPartitions()} partitions", file=sys.stderr)
    sc.stop()

if __name__ == "__main__":
    main()
