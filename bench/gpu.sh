#!/usr/bin/env bash
# The gpu profile, measured once: see bench/gpu.py. Writes book/results/gpu-<date>.json.
#   bash bench/gpu.sh [--budget-s 600]
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-$(command -v python3)}
[ -x .venv/bin/python ] && PY=.venv/bin/python
exec "$PY" bench/gpu.py --out "book/results/gpu-$(date +%F).json" "$@"
