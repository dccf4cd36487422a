# sitemap-lint in a container: a static musl binary on an empty image.
#
#   docker build -t sitemap-lint .
#   docker run --rm -v "$PWD:/work" sitemap-lint check public/
#
# Build stage: Alpine's Rust targets musl, and links statically by default.
FROM rust:1-alpine AS build
# mimalloc is C: a compiler and the musl headers.
RUN apk add --no-cache build-base
WORKDIR /src
COPY . .
RUN cargo build --release --locked && strip target/release/sitemap-lint

# The image: the binary and nothing else (no shell, no libc).
FROM scratch
COPY --from=build /src/target/release/sitemap-lint /usr/local/bin/sitemap-lint
COPY --from=build /src/LICENSE-MIT /src/LICENSE-APACHE /usr/share/doc/sitemap-lint/
# Runs on the empty image (exec form, no shell): the build fails unless the binary is static.
RUN ["/usr/local/bin/sitemap-lint", "--version"]
ENV PATH=/usr/local/bin
WORKDIR /work
ENTRYPOINT ["sitemap-lint"]
CMD ["check"]
