package io.antrean.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.antrean.channel.ChannelSecurity;
import io.antrean.channel.CoordinatorChannels;
import io.antrean.coordinator.security.Role;
import io.antrean.coordinator.security.TokenFile;
import io.antrean.proto.v1.GetJobRequest;
import io.antrean.proto.v1.Job;
import io.antrean.proto.v1.JobServiceGrpc;
import io.antrean.proto.v1.JobState;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A coordinator, two workers and the CLI as processes over mutual TLS with bearer tokens, with
 * certificates made at test time; and the refusal to expose a coordinator without them.
 */
@Timeout(400)
class SecureClusterIT {
  @RegisterExtension final Cluster cluster = new Cluster();
  @TempDir Path dir;
  private Path logDir;
  private TestCertificates certificates;
  private Path tokens;
  private final List<ManagedChannel> channels = new ArrayList<>();

  @BeforeEach
  void setUp(TestInfo info) throws Exception {
    String name = info.getTestMethod().orElseThrow().getName();
    cluster.setUp(dir, name);
    logDir = Path.of("target", "it-logs", name).toAbsolutePath();
    certificates = new TestCertificates(Files.createDirectories(dir.resolve("pki")));
    tokens = dir.resolve("tokens.json");
  }

  @AfterEach
  void closeChannels() {
    channels.forEach(ManagedChannel::shutdownNow);
  }

  @Test
  void workersAndTheCliWorkOverMutualTlsWithTokensAndAKilledWorkersJobIsTakenOver()
      throws Exception {
    TestCertificates.Pem server = certificates.issue("coordinator");
    cluster.startCoordinator(
        "--token-file", tokens().toString(),
        "--tls-cert", server.certificate().toString(),
        "--tls-key", server.key().toString(),
        "--tls-client-ca", certificates.caFile().toString());
    JvmProcess doomed = cluster.startWorker("doomed", workerArgs("worker-1", "5s"));
    JobServiceGrpc.JobServiceBlockingStub operator = stub("operator", token("operator"));

    long id = enqueueWithCli();
    Job running =
        Jobs.awaitState(operator, id, JobState.JOB_STATE_RUNNING, Duration.ofSeconds(120));
    assertThat(running.getLease().getWorkerId()).isEqualTo("worker-1/doomed");
    assertThat(running.getLease().getFencingToken()).as("hidden from non-holders").isZero();

    doomed.kill9();
    // The survivor's lease outlasts any pause of a busy machine: one expiry of its own would
    // add an entry to the history below.
    cluster.startWorker("survivor", workerArgs("worker-2", "60s"));

    Job done = Jobs.awaitState(operator, id, JobState.JOB_STATE_SUCCEEDED, Duration.ofSeconds(150));
    assertThat(done.getHistoryList())
        .extracting(a -> a.getWorkerId() + ":" + a.getOutcome())
        .containsExactly(
            "worker-1/doomed:ATTEMPT_OUTCOME_LEASE_EXPIRED",
            "worker-2/survivor:ATTEMPT_OUTCOME_SUCCEEDED");

    // Without a token, the certificate's common name is the identity: one the token file names
    // gets its roles, any other is refused; plaintext gets no answer at all.
    assertThat(stub("operator", null).getJob(GetJobRequest.newBuilder().setId(id).build()).getJob())
        .extracting(Job::getState)
        .isEqualTo(JobState.JOB_STATE_SUCCEEDED);
    assertThatThrownBy(
            () -> stub("stranger", null).getJob(GetJobRequest.newBuilder().setId(id).build()))
        .isInstanceOfSatisfying(
            StatusRuntimeException.class,
            e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAUTHENTICATED));
    ManagedChannel plaintext = CoordinatorChannels.open(cluster.target());
    channels.add(plaintext);
    assertThatThrownBy(
            () ->
                JobServiceGrpc.newBlockingStub(plaintext)
                    .withDeadlineAfter(10, TimeUnit.SECONDS)
                    .getJob(GetJobRequest.newBuilder().setId(id).build()))
        .isInstanceOfSatisfying(
            StatusRuntimeException.class,
            e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE));
  }

  @Test
  void aCoordinatorBoundBeyondLoopbackWithoutTlsAndTokensRefusesToStart() throws Exception {
    Path jar = Path.of(System.getProperty("antrean.coordinator.jar"));
    try (JvmProcess exposed =
        JvmProcess.start(
            "exposed",
            jar,
            logDir,
            List.of(
                "--host", "0.0.0.0",
                "--grpc-port", "0",
                "--http-port", "0",
                "--data-dir", dir.resolve("exposed").toString()))) {
      assertThat(exposed.awaitExit(Duration.ofSeconds(60))).isNotZero();
      assertThat(exposed.logText())
          .contains("refusing to listen on 0.0.0.0")
          .contains("--insecure");
    }
  }

  private Path tokens() throws Exception {
    Instant now = Instant.now();
    write("worker-1", TokenFile.create(tokens, "worker-1", EnumSet.of(Role.WORKER), Set.of(), now));
    write("worker-2", TokenFile.create(tokens, "worker-2", EnumSet.of(Role.WORKER), Set.of(), now));
    write("cli", TokenFile.create(tokens, "cli", EnumSet.of(Role.PRODUCER), Set.of(), now));
    write("operator", TokenFile.create(tokens, "operator", EnumSet.of(Role.READER), Set.of(), now));
    return tokens;
  }

  private void write(String name, String token) throws Exception {
    Files.writeString(dir.resolve(name + ".token"), token, StandardCharsets.UTF_8);
  }

  private Path token(String name) {
    return dir.resolve(name + ".token");
  }

  /**
   * @param leaseTtl how long its leases last without a heartbeat: how soon a killed worker's job is
   *     taken over
   */
  private String[] workerArgs(String identity, String leaseTtl) throws Exception {
    TestCertificates.Pem pem = certificates.issue(identity);
    return new String[] {
      "--lease-ttl", leaseTtl,
      "--tls-ca", certificates.caFile().toString(),
      "--tls-cert", pem.certificate().toString(),
      "--tls-key", pem.key().toString(),
      "--token-file", token(identity).toString()
    };
  }

  private long enqueueWithCli() throws Exception {
    TestCertificates.Pem pem = certificates.issue("cli");
    Path clientJar = Path.of(System.getProperty("antrean.client.jar"));
    try (JvmProcess cli =
        JvmProcess.start(
            "antrean-enqueue",
            clientJar,
            logDir,
            List.of(
                "--coordinator",
                cluster.target(),
                "--tls-ca",
                certificates.caFile().toString(),
                "--tls-cert",
                pem.certificate().toString(),
                "--tls-key",
                pem.key().toString(),
                "--token-file",
                token("cli").toString(),
                "enqueue",
                "--type",
                "sleep",
                "--payload",
                "{\"ms\":15000}"))) {
      assertThat(cli.awaitExit(Duration.ofSeconds(60))).as(cli.logText()).isZero();
      return Long.parseLong(
          cli.logText().lines().filter(l -> l.matches("\\d+")).findFirst().orElseThrow());
    }
  }

  private JobServiceGrpc.JobServiceBlockingStub stub(String identity, Path tokenFile)
      throws Exception {
    TestCertificates.Pem pem = certificates.issue(identity);
    ManagedChannel channel =
        CoordinatorChannels.forTargets(cluster.target())
            .security(
                ChannelSecurity.of(
                    certificates.caFile(), pem.certificate(), pem.key(), tokenFile, Map.of()))
            .build();
    channels.add(channel);
    // No deadline fixed at creation: polls may go on for minutes on a loaded machine, within the
    // test's timeout.
    return JobServiceGrpc.newBlockingStub(channel);
  }
}
