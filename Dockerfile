# relctl in a container, for CI runners that are not Debian or Ubuntu. The steps are the README's own (Install):
# libgit2-dev and pkg-config, a release build, scripts/install; the image runs on Debian 12 with libgit2-1.5.
#   docker build -t relctl .
#   docker run --rm -v "$PWD:/repo" -w /repo relctl relctl next
ARG SWIFT_VERSION=6.3
FROM swift:${SWIFT_VERSION}-bookworm AS build
RUN apt-get update && apt-get install -y --no-install-recommends libgit2-dev pkg-config \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
# The Swift runtime goes into the binary, so the run stage needs only libgit2.
RUN swift build -c release --static-swift-stdlib --disable-local-rpath -Xswiftc -use-ld=lld -Xlinker -no-pie $(scripts/link-order)
RUN scripts/install --prefix /usr/local --destdir /staging .build/release/relctl

FROM debian:bookworm-slim
# git and ca-certificates for the CI job around relctl (checkout, HTTPS push); curl for 'relctl gate raise-min'.
RUN apt-get update && apt-get install -y --no-install-recommends libgit2-1.5 git ca-certificates curl \
    && rm -rf /var/lib/apt/lists/*
COPY --from=build /staging/ /
CMD ["relctl", "--help"]
