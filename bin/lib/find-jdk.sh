# Faro: find a JDK 25 or newer. Sourced by ./faro, ./mvnw and .ci/run.
# Plain POSIX sh (./mvnw runs under /bin/sh), safe under `set -eu`; callers must have globbing on.
#
#   faro_find_jdk         print the home of a JDK >= 25, or return 1
#   faro_use_jdk          export JAVA_HOME to that JDK (keeps a suitable JAVA_HOME), or return 1
#   faro_print_jdk_help   explain how to get one (to stdout; redirect as needed)

FARO_MIN_JAVA_FEATURE=25

# faro_java_feature HOME: print the feature version (8, 17, 25, ...) of the JDK at HOME; return 1 when HOME
# is not a JDK (both bin/java and bin/javac are needed: ./faro builds before it runs).
faro_java_feature() {
    [ -x "$1/bin/java" ] && [ -x "$1/bin/javac" ] || return 1
    _faro_version=''
    if [ -r "$1/release" ]; then
        # JAVA_VERSION="25.0.3"
        _faro_version=$(sed -n 's/^JAVA_VERSION="\([^"]*\)".*/\1/p' "$1/release" 2>/dev/null) || _faro_version=''
    fi
    if [ -z "$_faro_version" ]; then
        # openjdk version "25.0.3" 2026-04-21 LTS
        _faro_version=$("$1/bin/java" -version 2>&1 | sed -n 's/^[^"]* version "\([^"]*\)".*/\1/p' | head -n 1) ||
            _faro_version=''
    fi
    case "$_faro_version" in
        1.*) _faro_version=${_faro_version#1.} ;; # 1.8.0_412 -> 8
    esac
    _faro_version=${_faro_version%%[!0-9]*} # 25.0.3, 25-ea, 25+36 -> 25
    [ -n "$_faro_version" ] || return 1
    printf '%s\n' "$_faro_version"
}

# faro_is_suitable_jdk HOME: true when HOME is a JDK >= 25.
faro_is_suitable_jdk() {
    _faro_feature=$(faro_java_feature "$1") || return 1
    [ "$_faro_feature" -ge "$FARO_MIN_JAVA_FEATURE" ]
}

# Prefers $JAVA_HOME; otherwise the JDK with the lowest version >= 25 among the usual install places, so a
# machine with both 25 and an early-access 26 builds with the release the project targets.
faro_find_jdk() {
    if [ -n "${JAVA_HOME-}" ] && faro_is_suitable_jdk "$JAVA_HOME"; then
        printf '%s\n' "$JAVA_HOME"
        return 0
    fi
    _faro_best=''
    _faro_best_feature=''
    for _faro_candidate in /usr/lib/jvm/* /opt/* \
        "${HOME:-/nonexistent}"/.sdkman/candidates/java/* "${HOME:-/nonexistent}"/.jdks/*; do
        [ -d "$_faro_candidate" ] || continue
        _faro_feature=$(faro_java_feature "$_faro_candidate") || continue
        [ "$_faro_feature" -ge "$FARO_MIN_JAVA_FEATURE" ] || continue
        if [ -z "$_faro_best" ] || [ "$_faro_feature" -lt "$_faro_best_feature" ]; then
            _faro_best=$_faro_candidate
            _faro_best_feature=$_faro_feature
        fi
    done
    [ -n "$_faro_best" ] || return 1
    printf '%s\n' "$_faro_best"
}

faro_use_jdk() {
    _faro_jdk=$(faro_find_jdk) || return 1
    JAVA_HOME=$_faro_jdk
    export JAVA_HOME
}

faro_print_jdk_help() {
    cat <<EOF
Faro needs a JDK ${FARO_MIN_JAVA_FEATURE} or newer, and found none.
Looked at \$JAVA_HOME (${JAVA_HOME:-unset}), /usr/lib/jvm/*, /opt/*, ~/.sdkman/candidates/java/*, ~/.jdks/*.
Install Temurin ${FARO_MIN_JAVA_FEATURE}, e.g. 'apt-get install temurin-${FARO_MIN_JAVA_FEATURE}-jdk' from Adoptium's apt repository
(https://adoptium.net/installation/linux/), or with SDKMAN! ('sdk list java', then
'sdk install java ${FARO_MIN_JAVA_FEATURE}.x.y-tem'); then set JAVA_HOME to it, or leave it where the list above looks.
EOF
}
