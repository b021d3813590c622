"""Extract the real screens listed in ``../shared/data/harvest/sources.tsv`` from mirrors.

Each public repository is brought here as a bare git directory by the search
tool's ``fetch`` (``/work/.mirror/OWNER+NAME/repo``); this script writes the
listed folders, at the listed commits, under ``--out`` (one folder a source):

    .venv/bin/python tools/harvest.py --mirrors /work/.mirror --out runs/harvest

It never reads the two repositories kept for independent evaluation
(cataco/automation2020, coinse/droidfiller-android). Re-running skips what is
already extracted (a ``.done`` file per source).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

#: Never train or tune on these (kept for independent evaluation).
HELD_OUT_REPOS = frozenset({"cataco/automation2020", "coinse/droidfiller-android"})


@dataclass(frozen=True, slots=True)
class Source:
    """One folder of sources.tsv: where it is and in which format."""

    name: str
    repo: str
    commit: str
    paths: tuple[str, ...]
    fmt: str  # droidbot | uiautomator | rico


SOURCES: tuple[Source, ...] = (
    Source(
        "fdroid_utg",
        "Kqramazov/fdroid_utg",
        "f6c89d97138223f499099cb2f6cf9fba3d1fb7b5",
        (":(glob)output/*.apk/states/**",),
        "droidbot",
    ),
    Source(
        "weibo",
        "Kqramazov/fdroid_utg",
        "f6c89d97138223f499099cb2f6cf9fba3d1fb7b5",
        ("output/weibo_bfs_greedy/states",),
        "droidbot",
    ),
    Source(
        "activitydiary",
        "functional-fuzzing-android-apps/home",
        "53b86cd64c9fe546f8d36ffa2c9cf547c6fdb0fc",
        (
            "app-ActivityDiary-bug-report-example/states",
            "app-ActivityDiary-bug-report-example/seed-tests/seed-test-7/mutant-659/states",
        ),
        "droidbot",
    ),
    Source(
        "uber",
        "hiroshiuber/hiroshiuber.github.io",
        "7ba8d285d6fe617bc3c8164bff9c04ed76c9d67e",
        ("states",),
        "droidbot",
    ),
    Source(
        "habitica",
        "jcardenascAndes93/habiticadroidbot.github.io",
        "4b8d894463cb3fc4f8d26bfb5ce6be258cba77c2",
        ("states",),
        "droidbot",
    ),
    Source(
        "rico",
        "kim-sanghoon/rico-json-processing",
        "69c8c060a3270f70fcbe0f5e7737de66219f94d4",
        ("original_picture", "json/raw"),
        "rico",
    ),
    Source(
        "gnews",
        "21JayChou/21JayChou.github.io",
        "afa32c8d387f9138fded4879fdd1bc34f6f5fee2",
        (":(glob)utg_data/[0-9]*.xml", ":(glob)utg_data/[0-9]*.png"),
        "uiautomator",
    ),
    Source(
        "blobit",
        "gaurabh-chakraborty/gaurabhgeekyants.github.io",
        "1f0a446fbb18d3daec1c8baece7ad9fc7673cf18",
        ("states",),
        "droidbot",
    ),
    Source(
        "testcube",
        "saimon4u/TestCube",
        "6c25aff857f6f8aba57c4fea2cc82a73b2239770",
        ("output_dir/D/states", "output_dir/states", "output_dir~/states"),
        "droidbot",
    ),
    Source(
        "yelp",
        "honeynet/droidbot",
        "6a737e4876f447cacdedc461b74e35cd45791ab1",
        ("report_com.yelp.android/states",),
        "droidbot",
    ),
    Source(
        "album",
        "honeynet/droidbot",
        "b0975eaf10892ab3b862e2d85a1cddd22ca66867",
        ("report_com.yanzhenjie.album.sample/states",),
        "droidbot",
    ),
    Source(
        "a2dp",
        "drme/gui-test",
        "96012e314877f62df249189f7f88706e6d98cb96",
        ("ScreenShotAnalyser/samples2/a2dp.Vol_137.apk_Nexus_One_API_25/states",),
        "droidbot",
    ),
    Source(
        "csci435",
        "d-steadman/CSCI-435-Skills-Test",
        "2725426f553fd898a04add3da6be0d88889e8fb0",
        ("Programming-Assignment-Data",),
        "uiautomator",
    ),
)


def git_dir(mirrors: Path, repo: str) -> Path:
    """The bare git directory of a fetched repository (or the .git of a checkout)."""
    base = mirrors / repo.replace("/", "+") / "repo"
    return base / ".git" if (base / ".git").is_dir() else base


def extract(source: Source, mirrors: Path, out: Path) -> Path:
    """Write one source's folders under ``out/<name>``; returns that folder."""
    if source.repo in HELD_OUT_REPOS:
        raise SystemExit(f"{source.repo} is kept for independent evaluation: never extract it")
    target = out / source.name
    if (target / ".done").is_file():
        return target
    gdir = git_dir(mirrors, source.repo)
    if not gdir.is_dir():
        raise SystemExit(f"no mirror of {source.repo} at {gdir}: fetch github:{source.repo} first")
    target.mkdir(parents=True, exist_ok=True)
    archive = subprocess.Popen(
        ["git", "--git-dir", str(gdir), "archive", source.commit, "--", *source.paths],
        stdout=subprocess.PIPE,
    )
    untar = subprocess.run(["tar", "-x", "-C", str(target)], stdin=archive.stdout, check=False)
    if archive.wait() != 0 or untar.returncode != 0:
        raise SystemExit(f"extracting {source.name} from {source.repo}@{source.commit[:8]} failed")
    (target / ".done").write_text(f"{source.repo}\t{source.commit}\t{source.fmt}\n")
    return target


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mirrors", type=Path, default=Path("/work/.mirror"))
    parser.add_argument("--out", type=Path, default=Path("runs/harvest"))
    parser.add_argument("--only", default="", help="comma-separated source names")
    args = parser.parse_args(argv)
    wanted = {n for n in args.only.split(",") if n}
    for source in SOURCES:
        if wanted and source.name not in wanted:
            continue
        folder = extract(source, args.mirrors, args.out)
        files = sum(1 for p in folder.rglob("*") if p.is_file())
        print(f"{source.name:14s} {source.fmt:12s} {files:6d} files  {folder}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
