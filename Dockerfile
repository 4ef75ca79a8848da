# AMCP Gateway container image: the WAR on the official Open Liberty image.
#
#   docker build -t amcp-gateway:0.1.0 .
#   docker compose up            (gateway + PostgreSQL; see docker-compose.yml)
#
# Base images are pinned by exact version (a static test, ContainerFilesTest, rejects `latest` and untagged
# images). The Liberty version matches the build's <version.liberty.runtime>; bump them together.
# The build image is also pinned by digest (as published for that tag in public Dockerfiles; not pulled
# here). No published digest of the Liberty 26.0.0.5 tag could be found to check, so it is pinned by tag only.

# --- build: the WAR and the two JDBC drivers, from source ------------------------------------------------
FROM maven:3.9.9-eclipse-temurin-17@sha256:f58d59b6273e785ac0a4477f6e9b5ba1d7731c75b906c0f7b34076f1851318cc AS build
WORKDIR /build
COPY pom.xml ./
COPY db/ db/
COPY src/main/ src/main/
RUN mvn -B -q -DskipTests -DskipITs package \
    org.apache.maven.plugins:maven-dependency-plugin:3.8.1:copy-dependencies \
      -DincludeGroupIds=org.postgresql,com.h2database -Dmdep.stripVersion=true -DoutputDirectory=target/jdbc

# --- runtime: Open Liberty 26.0.0.5, Java 17 ----------------------------------------------------------------
FROM icr.io/appcafe/open-liberty:26.0.0.5-kernel-slim-java17-openj9-ubi

# The production server.xml: every operator setting is a variable read from the environment.
COPY --chown=1001:0 src/main/liberty/config/server.xml /config/server.xml
# JVM options the gateway relies on (the Host header of pinned upstream calls).
COPY --chown=1001:0 src/main/liberty/config/jvm.options /config/jvm.options
# kernel-slim: install exactly the features server.xml lists.
RUN features.sh

# JDBC drivers stay out of the WAR; server.xml's library reads ${server.config.dir}/lib/global/jdbc.
COPY --from=build --chown=1001:0 /build/target/jdbc/ /config/lib/global/jdbc/
# The WAR sets its own context root (/) in WEB-INF/ibm-web-ext.xml.
COPY --from=build --chown=1001:0 /build/target/amcp-gateway.war /config/dropins/amcp-gateway.war

# Listen on all interfaces inside the container; PostgreSQL comes from DB_URL, DB_USER, DB_PASSWORD.
ENV AMCP_HOST=* \
    AMCP_HTTP_PORT=9080 \
    AMCP_HTTPS_PORT=9443

# Pre-warm the class cache and apply the image's defaults.
RUN configure.sh

EXPOSE 9080
USER 1001
