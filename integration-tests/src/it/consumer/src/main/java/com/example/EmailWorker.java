package com.example;

import io.antrean.worker.PermanentException;
import io.antrean.worker.Worker;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

public final class EmailWorker {
  public static void main(String[] args) throws InterruptedException {
    Worker worker =
        Worker.builder()
            .coordinator(args[0]) // HOST:PORT, a comma-separated list, or dns:///name:port
            .concurrency(4)
            .handler("email.send", job -> {
              if (!job.payloadUtf8().contains("\"to\"")) {
                throw new PermanentException("no recipient"); // dead-lettered at once
              }
              System.out.println("sending " + job.payloadUtf8()); // other exceptions: retried
              return "{\"sent\":true}".getBytes(StandardCharsets.UTF_8);
            })
            .build();
    Runtime.getRuntime().addShutdownHook(new Thread(() -> drain(worker)));
    worker.start();
    worker.awaitTermination(Duration.ofDays(365));
  }

  // SIGTERM: lease no more, give running jobs the grace (30 s) to finish, release the rest.
  private static void drain(Worker worker) {
    worker.shutdown();
    try {
      worker.awaitTermination(Duration.ofMinutes(1));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
