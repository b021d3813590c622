"""The real icon crops of a fine-tune: extracted from a ``dataset harvest`` output, split
by app (test = held-out apps, dev = a hashed share of the other non-system apps, train
= the rest), cached with jittered copies in ``real_crops.npz``."""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from screenpilot.datasets import real_icons
from screenpilot.errors import DataError
from screenpilot.training.icons.config import Logger
from screenpilot.training.icons.real.config import CROPS_FILE, RealTuneConfig
from screenpilot.vision.icon_vocab import load_vocabulary


@dataclass
class RealCrops:
    """The cached real crops: images (N, 1 + copies, S, S, 3), label index (-1 =
    no label), split (train / dev / test), app, description (``id:`` and the id's
    words for a crop labelled by its resource id)."""

    images: npt.NDArray[np.uint8]
    labels: npt.NDArray[np.int64]
    splits: npt.NDArray[np.str_]
    apps: npt.NDArray[np.str_]
    descriptions: npt.NDArray[np.str_]

    def where(self, split: str, labelled: bool = True) -> npt.NDArray[np.int64]:
        """Indices of ``split`` (with a label, or without one)."""
        mask = (self.splits == split) & ((self.labels >= 0) if labelled else (self.labels < 0))
        return np.nonzero(mask)[0]

    @classmethod
    def load(cls, path: Path) -> RealCrops:
        """Read ``real_crops.npz``."""
        try:
            with np.load(path) as z:
                return cls(z["images"], z["labels"], z["splits"], z["apps"], z["descriptions"])
        except (OSError, KeyError, ValueError) as exc:
            raise DataError(f"cannot read real icon crops {path}: {exc}") from exc


def dev_apps(apps: set[str], share: float, seed: int = 0) -> set[str]:
    """``share`` of the non-system apps, in a fixed hash order of the package names."""
    from screenpilot.datasets.harvest import is_system

    ranked = sorted(
        (a for a in apps if not is_system(a)),
        key=lambda a: hashlib.sha1(f"dev{seed}:{a}".encode()).hexdigest(),
    )
    return set(ranked[: max(1, round(share * len(ranked)))]) if ranked else set()


def prepare(cfg: RealTuneConfig, size: int, log: Logger = print) -> RealCrops:
    """Extract, split and cache the real crops (reused when ``real_crops.npz`` exists)."""
    path = cfg.out / CROPS_FILE
    if path.is_file():
        return RealCrops.load(path)
    vocab = load_vocabulary()
    records = real_icons.screens_from_manifest(cfg.data)
    held_out = set(real_icons.held_out_apps(cfg.data))
    report = real_icons.CropReport()
    ids = real_icons.ResourceIdTable.load() if cfg.resource_ids else None
    icons = real_icons.extract(records, report=report, ids=ids, id_skip_apps=held_out)
    # dev apps are drawn from the apps with description crops, as without ids (an app
    # with resource-id crops alone trains); id crops with no label are left out, so the
    # out-of-vocabulary crops of the calibration stay the description table's exclusions
    described = {i.app for i in icons if not i.id_words and i.app not in held_out}
    dev = dev_apps(described, cfg.dev_share, cfg.seed)
    icons = [i for i in icons if i.label or not i.id_words]
    split = ["test" if i.app in held_out else "dev" if i.app in dev else "train" for i in icons]
    images = real_icons.augmented_arrays(icons, size, cfg.copies, seed=cfg.seed)
    crops = RealCrops(
        images=images,
        labels=np.asarray([vocab.index(i.label) if i.label else -1 for i in icons], np.int64),
        splits=np.asarray(split),
        apps=np.asarray([i.app for i in icons]),
        descriptions=np.asarray([i.description or f"id:{i.id_words}" for i in icons]),
    )
    cfg.out.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(
        path,
        images=crops.images,
        labels=crops.labels,
        splits=crops.splits,
        apps=crops.apps,
        descriptions=crops.descriptions,
    )
    summary = {
        "report": report.to_json(),
        "dev_apps": sorted(dev),
        "held_out_apps": sorted(held_out),
        "counts": split_counts(crops),
        "resource_id_crops": id_counts(crops),
    }
    (cfg.out / "real_crops.json").write_text(
        json.dumps(summary, indent=1, ensure_ascii=False), encoding="utf-8"
    )
    log(json.dumps(summary["counts"]))
    return crops


def split_counts(crops: RealCrops) -> dict[str, dict[str, int]]:
    """Crops, labelled crops, apps and labels per split."""
    out = {}
    for split in ("train", "dev", "test"):
        mask = crops.splits == split
        labelled = mask & (crops.labels >= 0)
        out[split] = {
            "crops": int(mask.sum()),
            "labelled": int(labelled.sum()),
            "apps": len(set(crops.apps[mask].tolist())),
            "apps_labelled": len(set(crops.apps[labelled].tolist())),
            "labels": len(set(crops.labels[labelled].tolist())),
        }
    return out


def id_counts(crops: RealCrops) -> dict[str, dict[str, dict[str, int]]]:
    """The crops labelled by their resource id, per split: by label, by app, by id words."""
    vocab = load_vocabulary()
    out: dict[str, dict[str, dict[str, int]]] = {}
    for split in ("train", "dev", "test"):
        idx = [
            i
            for i in np.nonzero(crops.splits == split)[0]
            if str(crops.descriptions[i]).startswith("id:")
        ]
        by: dict[str, Counter[str]] = {"label": Counter(), "app": Counter(), "words": Counter()}
        for i in idx:
            by["label"][vocab.labels[int(crops.labels[i])].name] += 1
            by["app"][str(crops.apps[i])] += 1
            by["words"][str(crops.descriptions[i])[3:]] += 1
        out[split] = {"crops": {"all": len(idx)}} | {
            k: dict(c.most_common()) for k, c in by.items()
        }
    return out
