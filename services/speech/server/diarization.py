"""Speaker diarization: who speaks when in a mono recording, for any number of speakers.

1. Voice activity: Silero VAD (the ONNX model faster-whisper ships) finds the speech regions.
2. Windows: each region is cut into windows of 1.6 s every 0.8 s (a shorter region is one window),
   the length the speaker encoder was trained on.
3. Embeddings: the GE2E speaker encoder (speaker_encoder.py) turns each window into a unit vector;
   windows of one voice point the same way.
4. Clustering: agglomerative clustering with average linkage on cosine similarity joins windows
   while the two closest clusters are more alike than a threshold, then keeps joining until at
   most max_speakers remain (and stops at min_speakers); windows shorter than a second are left
   out of it (too short to say much about a voice) and join the cluster nearest to them. A few
   rounds of reassigning every window to its nearest cluster centre then tidy the edges.
5. Segments: every 10 ms of speech takes the speaker of the window centred nearest to it; a run
   shorter than 0.4 s between two runs of one speaker becomes theirs; consecutive runs of one
   speaker are merged. Speakers are named in order of first speech.

The thresholds were chosen on a calibration set of two-voice mixes of real recordings and checked on
other mixes (services/speech/test/diarization.test.ts, figures in services/speech/README.md).
"""

from dataclasses import dataclass

import numpy as np
from faster_whisper.vad import VadOptions, get_speech_timestamps

from speaker_encoder import FRAMES_PER_SECOND, SAMPLING_RATE, TARGET_DBFS, SpeakerEncoder


@dataclass
class DiarizationSettings:
    window_s: float = 1.6
    hop_s: float = 0.8
    # Windows shorter than this are assigned after clustering, not clustered.
    min_cluster_window_s: float = 1.0
    # The shortest speech kept at all.
    min_window_s: float = 0.3
    # Two clusters whose average cosine similarity is above this are one speaker.
    same_speaker_similarity: float = 0.62
    refinement_rounds: int = 3
    min_run_s: float = 0.4
    # Speech starts where Silero's probability reaches 0.5 and lasts until it falls under 0.2, so
    # that a weak voice (a narrow-band recording) is not cut to pieces.
    vad_threshold: float = 0.5
    vad_neg_threshold: float = 0.2
    vad_min_silence_ms: int = 250
    vad_pad_ms: int = 80


class Diarizer:
    def __init__(self, encoder: SpeakerEncoder, settings: DiarizationSettings | None = None):
        self.encoder = encoder
        self.settings = settings or DiarizationSettings()

    def speech_regions(self, audio):
        """Speech regions as (start, end) sample pairs."""
        options = VadOptions(
            threshold=self.settings.vad_threshold,
            neg_threshold=self.settings.vad_neg_threshold,
            min_speech_duration_ms=int(self.settings.min_window_s * 1000),
            min_silence_duration_ms=self.settings.vad_min_silence_ms,
            speech_pad_ms=self.settings.vad_pad_ms,
        )
        return [(chunk["start"], chunk["end"]) for chunk in get_speech_timestamps(audio, options)]

    def windows(self, regions):
        """The windows of the regions, as (start frame, length in frames) of 10 ms mel frames."""
        size = round(self.settings.window_s * FRAMES_PER_SECOND)
        hop = round(self.settings.hop_s * FRAMES_PER_SECOND)
        shortest = round(self.settings.min_window_s * FRAMES_PER_SECOND)
        starts, lengths = [], []
        for start_sample, end_sample in regions:
            first = start_sample * FRAMES_PER_SECOND // SAMPLING_RATE
            last = end_sample * FRAMES_PER_SECOND // SAMPLING_RATE
            length = last - first
            if length < shortest:
                continue
            if length <= size:
                starts.append(first)
                lengths.append(length)
                continue
            count = int(np.ceil((length - size) / hop)) + 1
            # Evenly spread so that the last window ends with the region.
            for offset in np.linspace(0, length - size, count).round().astype(int):
                starts.append(first + int(offset))
                lengths.append(size)
        return np.array(starts, dtype=np.int64), np.array(lengths, dtype=np.int64)

    def diarize(self, audio, min_speakers=1, max_speakers=8):
        duration = len(audio) / SAMPLING_RATE
        regions = self.speech_regions(audio)
        starts, lengths = self.windows(regions)
        # Less speech than one window the encoder can cluster tells no voice: what the VAD takes
        # for half a second of speech in white noise (about 1 recording in 100) is no speaker.
        speech_s = sum(end - start for start, end in regions) / SAMPLING_RATE
        if len(starts) == 0 or speech_s < self.settings.min_cluster_window_s:
            return {"duration": duration, "speakers": [], "segments": []}

        # Quiet recordings are raised to the level the encoder knows, as Resemblyzer does.
        speech = np.concatenate([audio[start:end] for start, end in regions])
        level = 20 * np.log10(max(float(np.sqrt(np.mean(np.square(speech, dtype=np.float64)))), 1e-9))
        gain = max(1.0, 10 ** ((TARGET_DBFS - level) / 20))
        mel = self.encoder.mel_frames(audio * gain)
        embeddings = self.encoder.embed(mel, starts, lengths)

        labels = self.cluster(embeddings, lengths, min_speakers, max_speakers)
        return {"duration": duration, **self.segments(regions, starts, lengths, labels)}

    def cluster(self, embeddings, lengths, min_speakers, max_speakers):
        settings = self.settings
        long_enough = lengths >= settings.min_cluster_window_s * FRAMES_PER_SECOND
        if long_enough.sum() < 2:
            long_enough = np.ones(len(lengths), dtype=bool)
        core = np.flatnonzero(long_enough)
        labels_core = agglomerate(embeddings[core], settings.same_speaker_similarity, min_speakers, max_speakers)

        labels = np.full(len(embeddings), -1)
        labels[core] = labels_core
        weights = lengths.astype(np.float64)
        for _ in range(settings.refinement_rounds + 1):
            centres = centroids(embeddings, labels, weights)
            similarity = embeddings @ centres.T
            updated = similarity.argmax(axis=1)
            # A cluster that lost all its windows disappears, unless min_speakers needs it.
            if len(np.unique(updated)) < min(min_speakers, len(centres)):
                break
            if np.array_equal(updated, labels):
                break
            labels = updated
        return labels

    def segments(self, regions, starts, lengths, labels):
        settings = self.settings
        centres = starts + lengths / 2
        order = np.argsort(centres)
        centres, labels = centres[order], labels[order]
        runs = []  # [start frame, end frame, label]
        for start_sample, end_sample in regions:
            first = start_sample * FRAMES_PER_SECOND // SAMPLING_RATE
            last = end_sample * FRAMES_PER_SECOND // SAMPLING_RATE
            frames = np.arange(first, last) + 0.5
            inside = (centres >= first) & (centres <= last)
            if not inside.any():
                continue
            region_centres, region_labels = centres[inside], labels[inside]
            nearest = np.abs(frames[:, None] - region_centres[None, :]).argmin(axis=1)
            frame_labels = region_labels[nearest]
            changes = np.flatnonzero(np.diff(frame_labels)) + 1
            bounds = np.concatenate([[0], changes, [len(frame_labels)]])
            for begin, end in zip(bounds[:-1], bounds[1:]):
                runs.append([first + int(begin), first + int(end), int(frame_labels[begin])])

        # A short run between two runs of one speaker is a slip of the window, not a turn.
        shortest = settings.min_run_s * FRAMES_PER_SECOND
        for index in range(1, len(runs) - 1):
            run = runs[index]
            if run[1] - run[0] < shortest and runs[index - 1][2] == runs[index + 1][2] != run[2]:
                if runs[index - 1][1] == run[0] or runs[index + 1][0] == run[1]:
                    run[2] = runs[index - 1][2]

        merged = []
        for run in runs:
            if merged and merged[-1][2] == run[2] and merged[-1][1] >= run[0]:
                merged[-1][1] = run[1]
            else:
                merged.append(list(run))

        names = {}
        segments = []
        for start, end, label in merged:
            name = names.setdefault(label, f"SPEAKER_{len(names):02d}")
            segments.append({"start": round(start / FRAMES_PER_SECOND, 3), "end": round(end / FRAMES_PER_SECOND, 3), "speaker": name})
        return {"speakers": list(names.values()), "segments": segments}


def centroids(embeddings, labels, weights):
    present = np.unique(labels[labels >= 0])
    centres = np.stack([(embeddings[labels == label] * weights[labels == label, None]).sum(axis=0) for label in present])
    return centres / np.linalg.norm(centres, axis=1, keepdims=True)


def agglomerate(embeddings, threshold, min_clusters, max_clusters):
    """Average-linkage agglomerative clustering on cosine similarity: cluster labels 0…k-1."""
    count = len(embeddings)
    if count == 1:
        return np.zeros(1, dtype=int)
    similarity = (embeddings @ embeddings.T).astype(np.float64)
    np.fill_diagonal(similarity, -np.inf)
    sizes = np.ones(count)
    members = {index: [index] for index in range(count)}
    clusters = count
    while clusters > max(1, min_clusters):
        flat = int(np.argmax(similarity))
        first, second = divmod(flat, count)
        if similarity[first, second] < threshold and clusters <= max_clusters:
            break
        # Average linkage: the merged cluster's similarity to any other is the size-weighted mean.
        merged = (similarity[first] * sizes[first] + similarity[second] * sizes[second]) / (sizes[first] + sizes[second])
        similarity[first, :] = merged
        similarity[:, first] = merged
        similarity[first, first] = -np.inf
        similarity[second, :] = -np.inf
        similarity[:, second] = -np.inf
        sizes[first] += sizes[second]
        members[first].extend(members.pop(second))
        clusters -= 1
    labels = np.empty(count, dtype=int)
    for label, indices in enumerate(members.values()):
        labels[indices] = label
    return labels
