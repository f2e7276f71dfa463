package com.example;

import io.antrean.client.AntreanClient;
import io.antrean.client.GrpcAntreanClient;
import io.antrean.client.JobSpec;
import io.antrean.proto.v1.Job;
import java.time.Duration;

public final class SignupProducer {
  public static void main(String[] args) {
    try (AntreanClient client =
        GrpcAntreanClient.forTarget(args[0]).timeout(Duration.ofSeconds(30)).build()) {
      JobSpec welcome =
          JobSpec.builder("email.send")
              .jsonPayload("{\"to\":\"ada@example.com\"}")
              .idempotencyKey("welcome-ada") // a retried enqueue returns the same job
              .build();
      long id = client.enqueue(welcome).getJob().getId();
      Job done = client.awaitTerminal(id, Duration.ofMinutes(1));
      System.out.println("job " + id + " " + done.getState() + " " + done.getResult().toStringUtf8());
    }
  }
}
