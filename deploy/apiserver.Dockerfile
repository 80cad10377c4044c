# The aggregated apiserver image. Build from the repository root:
#   docker build -f deploy/apiserver.Dockerfile -t ghcr.io/example/dbaas-apiserver:0.1.0 .
# (deploy/apiserver.Dockerfile.dockerignore keeps node_modules and build output out of the context.)

# Stage 1: install the workspace with the committed Yarn and lockfile, then bundle the apiserver.
FROM node:20-bookworm-slim AS build
# Some workspace dependencies build native addons when no prebuilt binary matches; libjemalloc2 is
# the allocator the apiserver runs with (see the last stage).
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ libjemalloc2 \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
RUN node .yarn/releases/yarn-4.13.0.cjs install --immutable
# .git stays out of the context: the commit comes in as build args (served at /version), e.g.
#   --build-arg GIT_COMMIT=$(git rev-parse HEAD) --build-arg GIT_TREE_STATE=clean
ARG GIT_COMMIT=""
ARG GIT_TREE_STATE=""
RUN GIT_COMMIT="$GIT_COMMIT" GIT_TREE_STATE="$GIT_TREE_STATE" bash deploy/build-apiserver.sh /out
RUN cp /usr/lib/*-linux-gnu/libjemalloc.so.2 /out/libjemalloc.so.2

# Stage 2: only Node and the bundle. distroless "nonroot" runs as uid/gid 65532 and has no shell.
FROM gcr.io/distroless/nodejs20-debian12:nonroot
WORKDIR /app
COPY --from=build /out/apiserver.cjs /out/apiserver.cjs.map /app/
# jemalloc, not glibc's malloc: the informers' start-up lists leave glibc holding freed memory it
# never gives back (3-4 KiB per instance at 50,000, measured by `yarn bench`); jemalloc's
# background thread returns it within seconds. It needs libstdc++ and libgcc_s, which Node's image has.
COPY --from=build /out/libjemalloc.so.2 /usr/local/lib/libjemalloc.so.2
ENV LD_PRELOAD=/usr/local/lib/libjemalloc.so.2 MALLOC_CONF=background_thread:true
USER 65532:65532
EXPOSE 8443
# Flags come from the pod's `args`, so the entrypoint carries the script: `args` replaces CMD only.
# Nothing is written to disk, so a read-only root filesystem works.
# --max-semi-space-size=64 (MiB; Node 20's default is 16): the informers' start-up lists allocate
# hundreds of MiB that die young; with a small young generation much of it is promoted, and the old
# space it fragments is what the process keeps (settled RSS at 50,000 instances 15.4-17.3 KiB per
# instance with 16, 14.4-15.4 with 64, `yarn bench`). The young generation only grows while a burst
# needs it and shrinks when idle, so a small install pays nothing.
ENTRYPOINT ["/nodejs/bin/node", "--enable-source-maps", "--max-semi-space-size=64", "/app/apiserver.cjs"]
CMD []
