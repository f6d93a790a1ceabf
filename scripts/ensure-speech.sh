#!/usr/bin/env bash
# Debian's speech tools, installed only when missing: ffmpeg decodes uploaded recordings,
# PocketSphinx with its US English model transcribes them where the speech server (Whisper) cannot
# be set up, and espeak-ng speaks the demo data's recorded calls and the two-voice test calls. With --tests, also
# pocketsphinx-testdata (LibriVox recordings with their transcripts, for the word error rate) and
# codec2-examples (real voices, mostly 8 kHz radio recordings, for the speaker diarization tests).
set -euo pipefail

packages=(ffmpeg pocketsphinx pocketsphinx-en-us espeak-ng)
[[ ${1:-} == --tests ]] && packages+=(pocketsphinx-testdata codec2-examples)

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' || missing+=("$package")
done
if (( ${#missing[@]} > 0 )); then
  echo "Installing ${missing[*]} from Debian's packages…" >&2
  export DEBIAN_FRONTEND=noninteractive
  sudo_if_needed=()
  (( EUID == 0 )) || sudo_if_needed=(sudo)
  "${sudo_if_needed[@]}" apt-get update -qq >&2
  "${sudo_if_needed[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi
