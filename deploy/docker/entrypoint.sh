#!/bin/sh
# Starts the image's deployable (SERVICE, set at build time) with any arguments the pod passes,
# e.g. --target=scoring. exec, so SIGTERM reaches Node and the host drains.
set -eu
if [ "$SERVICE" = gateway ]; then entry=gateway/src/main.ts; else entry="services/$SERVICE/src/main.ts"; fi
exec node --enable-source-maps --import tsx "$entry" "$@"
