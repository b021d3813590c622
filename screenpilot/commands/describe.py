"""``screenpilot describe IMAGE...``: what is on a screenshot, in words, JSON or an overlay.

A folder argument describes every image in it, at any depth, hidden folders (``.git``,
``.venv``) left out, with a progress bar on stderr; each description is printed as
soon as it is done, so a stopped batch keeps what it did. An empty argument (a shell
variable that expanded to nothing) is refused, not read as the current folder.
``--stages ocr`` runs OCR alone (the speed baseline). Stages that could not run
(no detector or icon model shipped yet) are reported on stderr, never fatal.

Only regular files are read, and only up to a size limit (``vision.image``): a
FIFO, a device or a huge file is refused before it is read. With several images,
one that cannot be described (for any reason) is listed and the others are still
described; the command then exits 4 naming the files it could not describe.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from screenpilot.commands.common import config_from, console, err_console, given_path
from screenpilot.errors import ScreenpilotError, VisionError

if TYPE_CHECKING:
    from screenpilot.vision.batch import Result

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".webp", ".bmp", ".gif")


def register(app: typer.Typer) -> None:
    app.command("describe")(describe)


def _hidden(path: Path, top: Path) -> bool:
    """Whether ``path`` lies in a hidden folder under ``top`` (``.git``, ``.venv``)."""
    return any(part.startswith(".") for part in path.relative_to(top).parts[:-1])


def _expand(given: list[str]) -> list[Path]:
    """The image files of the arguments ``given``: a folder's images at any depth, hidden
    folders (``.git``, ``.venv``) left out."""
    out: list[Path] = []
    for typed in given:
        p = given_path(typed, "IMAGES", "a screenshot or a folder of them")
        if p.is_dir():
            found = sorted(
                f for f in p.rglob("*") if f.suffix.lower() in IMAGE_SUFFIXES and not _hidden(f, p)
            )
            if not found:
                raise VisionError(
                    f"no images in folder {p}",
                    hint=f"expected files ending in {', '.join(IMAGE_SUFFIXES)}",
                )
            out += found
        else:
            out.append(p)
    return out


def _overlay_names(files: Sequence[Path]) -> dict[Path, str]:
    """A name for each file's overlay, unique among ``files``: the file's stem, with as
    many of its folders before it as two files' names need to differ
    (``MaterialFiles-2`` and ``LoopHabits-2``)."""
    parts = {f: f.with_suffix("").parts for f in files}
    deepest = max((len(p) for p in parts.values()), default=0)
    # how many distinct files end in each name, at each depth
    counts = [Counter("-".join(p[-depth:]) for p in parts.values()) for depth in range(deepest + 1)]
    names: dict[Path, str] = {}
    taken: set[str] = set()
    for f in files:
        depth = 1
        while counts[depth]["-".join(parts[f][-depth:])] > 1 and depth < len(parts[f]):
            depth += 1
        name = "-".join(parts[f][-depth:]).lstrip(".-/") or f.stem
        base, n = name, 1
        while name in taken:  # the same path twice, or a.png beside a.jpg
            n += 1
            name = f"{base}-{n}"
        taken.discard(names.get(f, ""))  # a path given twice keeps its last name only
        names[f] = name
        taken.add(name)
    return names


def _overlay_path(out: Path, image: Path, many: bool, names: dict[Path, str] | None = None) -> Path:
    if not many:
        return out
    stem = (names or {}).get(image, image.stem)
    return (
        out / f"{stem}.overlay.png"
        if out.suffix.lower() != ".png"
        else out.with_name(f"{out.stem}-{stem}.png")
    )


def describe(
    ctx: typer.Context,
    images: list[str] = typer.Argument(
        ..., metavar="IMAGES", help="Screenshots, or folders of them (hidden folders skipped)."
    ),
    as_json: bool = typer.Option(
        False,
        "--json",
        help="Print the Screen as JSON (one document per line for several images): each "
        "element's box and, where a tap on it belongs to a larger region (a row, a touch "
        "target), that region as its target.",
    ),
    overlay: Path | None = typer.Option(
        None,
        "--overlay",
        metavar="OUT.png",
        help="Write an overlay PNG (a folder for several images).",
    ),
    targets: bool = typer.Option(
        False,
        "--targets",
        help="Draw each element's tap extent on the overlay too (a thin line).",
    ),
    stages: str = typer.Option(
        "ocr,detect,icons,blocks",
        "--stages",
        help="Comma-separated stages to run: ocr, detect, icons, blocks.",
    ),
    threshold: float | None = typer.Option(
        None, "--threshold", help="OCR recognition threshold (vision.ocr_threshold)."
    ),
    density: int | None = typer.Option(
        None,
        "--density",
        metavar="DPI",
        min=60,
        max=1000,
        help="The phone's screen density (`adb shell wm density`). A tablet's screenshot "
        "(over 520 dp across at that density) is then read at a phone's scale; a phone's "
        "is read the same either way. Commands that drive a phone read it themselves.",
    ),
) -> None:
    """Describe screenshots from their pixels: the text the planner reads."""
    if targets and overlay is None:  # before any work: the flag alone would draw nothing
        raise typer.BadParameter(
            "it draws on the overlay: add --overlay OUT.png", param_hint="--targets"
        )
    cfg = config_from(ctx, **{"vision.ocr_threshold": threshold})
    files = _expand(images)
    many = len(files) > 1
    overlay_names = _overlay_names(files) if overlay is not None and many else {}
    noticed: set[str] = set()

    def show(result: Result) -> None:  # each one as soon as it is described
        _print(
            result,
            as_json=as_json,
            overlay=overlay,
            many=many,
            targets=targets,
            noticed=noticed,
            names=overlay_names,
        )

    results = _run(files, stages.split(","), float(cfg["vision.ocr_threshold"]), show, density)
    failed = [(p, r) for p, r in results if isinstance(r, ScreenpilotError)]
    if failed and not many:
        raise failed[0][1]
    if failed:
        names = ", ".join(str(p) for p, _ in failed[:5]) + (", ..." if len(failed) > 5 else "")
        raise VisionError(
            f"{len(failed)} of {len(files)} images could not be described: {names}",
            hint="each one's reason is printed above",
        )


def _run(
    files: list[Path],
    stages: list[str],
    threshold: float,
    show: Callable[[Result], None],
    density: int | None = None,
) -> list[Result]:
    """Describe each file (a progress bar when there are several), ``show`` each result
    as it comes; errors kept per file."""
    from rich.progress import Progress

    from screenpilot.vision.batch import describe_files

    with Progress(console=err_console, transient=True, disable=len(files) < 2) as bar:
        task = bar.add_task("describing", total=len(files))

        def done(result: Result) -> None:
            show(result)
            bar.advance(task)

        return describe_files(files, stages, threshold, done=done, density=density)


def _print(
    item: Result,
    *,
    as_json: bool,
    overlay: Path | None,
    many: bool,
    targets: bool,
    noticed: set[str],
    names: dict[Path, str] | None = None,
) -> None:
    """One file's description (text or JSON on stdout, an overlay) or its error;
    ``noticed``: the notes said already (each is said once)."""
    from rich.markup import escape

    from screenpilot.vision.overlay import save

    path, result = item
    if isinstance(result, ScreenpilotError):
        said = str(result) if str(path) in str(result) else f"{path}: {result}"
        err_console.print(
            f"[red]cannot describe:[/red] {escape(said)}", highlight=False, soft_wrap=True
        )
        return
    for notice in result.notices:
        if notice not in noticed:
            err_console.print(f"[yellow]note:[/yellow] {notice}", highlight=False)
            noticed.add(notice)
    if as_json:
        typer.echo(result.screen.to_json())
    else:
        if many:
            console.print(f"== {path}", highlight=False, markup=False, soft_wrap=True)
        typer.echo(result.screen.describe())
    if overlay is not None:
        out = save(path, result.screen, _overlay_path(overlay, path, many, names), targets=targets)
        err_console.print(f"overlay: {out}", highlight=False)
