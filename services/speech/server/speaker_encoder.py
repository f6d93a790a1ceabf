"""A speaker-embedding model run with numpy: Resemblyzer's pretrained GE2E voice encoder.

The Python package Resemblyzer (installed without its dependencies, see requirements-no-deps.txt)
ships `resemblyzer/pretrained.pt`, a speaker encoder trained with the generalised end-to-end loss
(Wan et al., 2018): three LSTM layers (40 -> 256) over 40-band mel power frames of 25 ms every
10 ms at 16 kHz, a linear layer (256 -> 256), ReLU and L2 normalisation. Its own code needs torch,
which would bring gigabytes into the image, so this module reads the checkpoint without torch (a
restricted unpickler that turns the stored tensors into numpy arrays and can build nothing else)
and runs the same network in numpy, many windows at once.

    encoder = SpeakerEncoder.load()
    mel = encoder.mel_frames(audio_16k)               # (frames, 40), one frame every 10 ms
    embeddings = encoder.embed(mel, starts, lengths)  # (windows, 256), unit length

Two windows of the same voice have a cosine similarity clearly above two of different voices;
the diarization (diarization.py) clusters them.
"""

import pickle
import struct
from collections import OrderedDict
from importlib.util import find_spec
from pathlib import Path

import numpy as np

SAMPLING_RATE = 16_000
# The encoder's front end (resemblyzer/hparams.py): 25 ms windows every 10 ms, 40 mel bands.
FFT_SIZE = 400
HOP = 160
MEL_BANDS = 40
FRAMES_PER_SECOND = SAMPLING_RATE // HOP
# What Resemblyzer raises quiet recordings to before it embeds them, in dB below full scale.
TARGET_DBFS = -30.0
MODEL_ID = "resemblyzer-ge2e-0.1.4"

# Torch's legacy checkpoint format: a magic number, a protocol version and the system's sizes,
# each pickled, then the pickled object whose tensors refer to storages by key, then the list of
# those keys, then each storage as its element count and its raw little-endian bytes.
LEGACY_MAGIC = 0x1950A86A20F9469CFC6C
STORAGE_TYPES = {"FloatStorage": np.float32, "DoubleStorage": np.float64, "LongStorage": np.int64, "IntStorage": np.int32}


class _Storage:
    """A storage named in the pickle, filled once its bytes (after the pickle) have been read."""

    def __init__(self, dtype, count):
        self.dtype, self.count, self.array = dtype, count, None


class _TensorView:
    """A tensor as the pickle describes it: a view (offset, shape, strides) into a storage."""

    def __init__(self, storage, offset, shape, strides):
        self.storage, self.offset, self.shape, self.strides = storage, offset, tuple(shape), tuple(strides)

    def to_numpy(self):
        item = self.storage.array.itemsize
        return np.lib.stride_tricks.as_strided(
            self.storage.array[self.offset :], shape=self.shape, strides=tuple(stride * item for stride in self.strides)
        ).copy()


def _rebuild_tensor(storage, offset, shape, strides, *_ignored):
    return _TensorView(storage, offset, shape, strides)


class _CheckpointUnpickler(pickle.Unpickler):
    """Builds only ordered dicts, storages and tensor views: a checkpoint cannot run code here."""

    def __init__(self, file, storages):
        super().__init__(file)
        self.storages = storages

    def find_class(self, module, name):
        if (module, name) == ("collections", "OrderedDict"):
            return OrderedDict
        if (module, name) in (("torch._utils", "_rebuild_tensor_v2"), ("torch._utils", "_rebuild_tensor")):
            return _rebuild_tensor
        if module == "torch" and name in STORAGE_TYPES:
            return name
        raise pickle.UnpicklingError(f"the checkpoint refers to {module}.{name}, which a weights file has no reason to")

    def persistent_load(self, saved_id):
        kind, storage_type, key, _location, count = saved_id[:5]
        if kind != "storage" or storage_type not in STORAGE_TYPES:
            raise pickle.UnpicklingError(f"unexpected persistent id {saved_id[:2]!r} in the checkpoint")
        if key not in self.storages:
            self.storages[key] = _Storage(STORAGE_TYPES[storage_type], count)
        return self.storages[key]


def read_legacy_checkpoint(path):
    """The object in a torch checkpoint of the legacy (non-zip) format, its tensors as numpy arrays."""
    with open(path, "rb") as file:
        restricted = lambda: _CheckpointUnpickler(file, {}).load()  # noqa: E731 - three plain values
        if restricted() != LEGACY_MAGIC:
            raise ValueError(f"{path} is not a torch checkpoint of the legacy format")
        restricted()  # protocol version
        system = restricted()
        if not system.get("little_endian", True):
            raise ValueError(f"{path} was saved on a big-endian machine")
        storages = {}
        state = _CheckpointUnpickler(file, storages).load()
        keys = _CheckpointUnpickler(file, storages).load()
        for key in keys:
            storage = storages[key]
            (count,) = struct.unpack("<q", file.read(8))
            data = file.read(count * np.dtype(storage.dtype).itemsize)
            storage.array = np.frombuffer(data, dtype=storage.dtype)

    def convert(value):
        if isinstance(value, _TensorView):
            return value.to_numpy()
        if isinstance(value, dict):
            return OrderedDict((name, convert(item)) for name, item in value.items())
        return value

    return convert(state)


def _slaney_mel_filters(sampling_rate, fft_size, bands):
    """The mel filterbank librosa builds by default (Slaney's mel scale, area-normalised triangles)."""

    def hz_to_mel(hz):
        hz = np.asarray(hz, dtype=np.float64)
        linear = hz / (200.0 / 3)
        logarithmic = 15.0 + np.log(np.maximum(hz, 1e-10) / 1000.0) / (np.log(6.4) / 27.0)
        return np.where(hz >= 1000.0, logarithmic, linear)

    def mel_to_hz(mel):
        mel = np.asarray(mel, dtype=np.float64)
        linear = mel * (200.0 / 3)
        logarithmic = 1000.0 * np.exp((np.log(6.4) / 27.0) * (mel - 15.0))
        return np.where(mel >= 15.0, logarithmic, linear)

    fft_hz = np.linspace(0, sampling_rate / 2, 1 + fft_size // 2)
    mel_hz = mel_to_hz(np.linspace(hz_to_mel(0.0), hz_to_mel(sampling_rate / 2), bands + 2))
    widths = np.diff(mel_hz)
    ramps = mel_hz[:, None] - fft_hz[None, :]
    rising = -ramps[:-2] / widths[:-1, None]
    falling = ramps[2:] / widths[1:, None]
    filters = np.maximum(0, np.minimum(rising, falling))
    filters *= (2.0 / (mel_hz[2:] - mel_hz[:-2]))[:, None]
    return filters.astype(np.float32)


class SpeakerEncoder:
    def __init__(self, state):
        self.layers = []
        for index in range(3):
            weights_in = state[f"lstm.weight_ih_l{index}"]
            weights_hidden = state[f"lstm.weight_hh_l{index}"]
            bias = state[f"lstm.bias_ih_l{index}"] + state[f"lstm.bias_hh_l{index}"]
            # PyTorch stores the gates as input, forget, cell, output; reordered to input, forget,
            # output, cell so that the three sigmoid gates are one contiguous block.
            size = weights_hidden.shape[1]
            order = np.concatenate([np.arange(0, 2 * size), np.arange(3 * size, 4 * size), np.arange(2 * size, 3 * size)])
            # One matrix for [input, hidden] -> gates, so that each step of a layer is one product.
            self.layers.append((np.ascontiguousarray(np.concatenate([weights_in[order], weights_hidden[order]], axis=1).T, dtype=np.float32), bias[order].astype(np.float32)))
        self.hidden_size = state["lstm.weight_hh_l0"].shape[1]
        self.linear_weights = np.ascontiguousarray(state["linear.weight"].astype(np.float32).T)
        self.linear_bias = state["linear.bias"].astype(np.float32)
        self.mel_filters = _slaney_mel_filters(SAMPLING_RATE, FFT_SIZE, MEL_BANDS)
        # Periodic Hann, as scipy's get_window('hann') gives librosa.
        self.window = (0.5 - 0.5 * np.cos(2 * np.pi * np.arange(FFT_SIZE) / FFT_SIZE)).astype(np.float32)

    @classmethod
    def load(cls, path=None):
        """The encoder with Resemblyzer's weights (or those of another checkpoint of the same network)."""
        if path is None:
            spec = find_spec("resemblyzer")
            if spec is None or not spec.submodule_search_locations:
                raise RuntimeError("The Python package Resemblyzer (its pretrained.pt) is not installed: run services/speech/install.sh")
            path = Path(next(iter(spec.submodule_search_locations))) / "pretrained.pt"
        checkpoint = read_legacy_checkpoint(path)
        return cls(checkpoint["model_state"])

    def mel_frames(self, audio):
        """40-band mel power frames (frames, 40) of 16 kHz audio: frame i is centred on sample 160 i."""
        audio = np.asarray(audio, dtype=np.float32)
        padded = np.pad(audio, FFT_SIZE // 2, mode="reflect" if len(audio) > FFT_SIZE // 2 else "constant")
        count = 1 + (len(padded) - FFT_SIZE) // HOP
        if count <= 0:
            return np.zeros((0, MEL_BANDS), dtype=np.float32)
        frames = np.lib.stride_tricks.as_strided(padded, shape=(count, FFT_SIZE), strides=(padded.strides[0] * HOP, padded.strides[0]))
        mel = np.empty((count, MEL_BANDS), dtype=np.float32)
        # In blocks, so that a long recording's spectrum never sits in memory whole.
        for start in range(0, count, 20_000):
            spectrum = np.fft.rfft(frames[start : start + 20_000] * self.window, axis=1)
            power = (spectrum.real**2 + spectrum.imag**2).astype(np.float32)
            mel[start : start + 20_000] = power @ self.mel_filters.T
        return mel

    def embed(self, mel, starts, lengths, batch_size=768):
        """Unit embeddings (windows, 256) of the mel frames mel[start:start + length] of each window."""
        starts = np.asarray(starts, dtype=np.int64)
        lengths = np.asarray(lengths, dtype=np.int64)
        embeddings = np.zeros((len(starts), self.linear_bias.shape[0]), dtype=np.float32)
        # Windows of similar length together, so that a batch runs as few steps as it must; large
        # batches, as a matrix product of 768 rows runs about twice as fast a row as one of 256.
        order = np.argsort(lengths, kind="stable")
        for begin in range(0, len(order), batch_size):
            chosen = order[begin : begin + batch_size]
            embeddings[chosen] = self._embed_batch(mel, starts[chosen], lengths[chosen])
        return embeddings

    def _embed_batch(self, mel, starts, lengths):
        steps = int(lengths.max())
        batch = len(starts)
        size = self.hidden_size
        ragged = bool((lengths != steps).any())
        # Each layer's [input, hidden] side by side; the three layers advance together one step at
        # a time, so no layer's whole output sequence is ever held (a few MB, not hundreds).
        joined = [np.zeros((batch, weights.shape[0]), dtype=np.float32) for weights, _ in self.layers]
        cells = [np.zeros((batch, size), dtype=np.float32) for _ in self.layers]
        gates = np.empty((batch, 4 * size), dtype=np.float32)
        for step in range(steps):
            # Past a window's end its last frame repeats; the mask below ignores it.
            joined[0][:, : MEL_BANDS] = mel[starts + np.minimum(step, lengths - 1)]
            running = (step < lengths)[:, None] if ragged else None
            for layer, (weights, bias) in enumerate(self.layers):
                np.matmul(joined[layer], weights, out=gates)
                gates += bias
                sigmoid = gates[:, : 3 * size]
                # sigmoid(x) = (tanh(x / 2) + 1) / 2: exact, and never overflows as exp(-x) can.
                sigmoid *= 0.5
                np.tanh(sigmoid, out=sigmoid)
                sigmoid += 1.0
                sigmoid *= 0.5
                candidate = np.tanh(gates[:, 3 * size :])
                candidate *= gates[:, :size]
                cell = gates[:, size : 2 * size] * cells[layer]
                cell += candidate
                hidden = np.tanh(cell)
                hidden *= gates[:, 2 * size : 3 * size]
                if running is not None:
                    # A window that has ended keeps its last state.
                    cell = np.where(running, cell, cells[layer])
                    hidden = np.where(running, hidden, joined[layer][:, -size:])
                cells[layer] = cell
                joined[layer][:, -size:] = hidden
                if layer + 1 < len(self.layers):
                    joined[layer + 1][:, :size] = hidden
        raw = np.maximum(joined[-1][:, -size:] @ self.linear_weights + self.linear_bias, 0.0)
        norms = np.linalg.norm(raw, axis=1, keepdims=True)
        return raw / np.maximum(norms, 1e-8)
