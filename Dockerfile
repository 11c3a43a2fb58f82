# syntax=docker/dockerfile:1

# Build with the Maven wrapper on a JDK 25 (tests run in CI, where a database is at hand).
FROM eclipse-temurin:25-jdk AS build
WORKDIR /build
COPY mvnw pom.xml ./
COPY .mvn .mvn
RUN ./mvnw -B -q dependency:go-offline
COPY src src
COPY db db
COPY openapi openapi
RUN ./mvnw -B -q package -DskipTests

# Run on a JRE 25 as an unprivileged user.
FROM eclipse-temurin:25-jre
RUN groupadd --system edp \
 && useradd --system --gid edp --home-dir /var/lib/edp --create-home --shell /usr/sbin/nologin edp
COPY --from=build /build/target/edp.jar /opt/edp/edp.jar
USER edp
WORKDIR /var/lib/edp
# Used only when no SPRING_DATASOURCE_URL is given: the embedded PostgreSQL keeps its data in the volume.
ENV EDP_DATA_DIR=/var/lib/edp
VOLUME ["/var/lib/edp"]
EXPOSE 8080
# An OutOfMemoryError ends the process (the code halts too, for plain `java -jar`), so the supervisor restarts it.
ENTRYPOINT ["java", "-XX:+ExitOnOutOfMemoryError", "-jar", "/opt/edp/edp.jar"]
