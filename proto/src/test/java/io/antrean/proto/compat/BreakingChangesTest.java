package io.antrean.proto.compat;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.EnumValueDescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorSet;
import com.google.protobuf.DescriptorProtos.MethodDescriptorProto;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** What the breaking-change check rejects and what it lets through, on the real protocol. */
class BreakingChangesTest {
  private static FileDescriptorSet protocol;

  @BeforeAll
  static void load() throws Exception {
    protocol = ProtocolCompatibilityTest.current();
  }

  @Test
  void theSameProtocolIsCompatible() {
    assertThat(BreakingChanges.between(protocol, protocol)).isEmpty();
  }

  @Test
  void additionsAreCompatible() {
    FileDescriptorSet added =
        editFile(
            "antrean/v1/job.proto",
            f ->
                f.toBuilder()
                    .addMessageType(DescriptorProto.newBuilder().setName("Brand"))
                    .setMessageType(
                        index(f, "Job"),
                        message(f, "Job").toBuilder()
                            .addField(
                                field("brand_new", 999, FieldDescriptorProto.Type.TYPE_STRING)))
                    .setEnumType(
                        0,
                        f.getEnumType(0).toBuilder()
                            .addValue(
                                EnumValueDescriptorProto.newBuilder()
                                    .setName("JOB_STATE_NEW")
                                    .setNumber(99)))
                    .build());
    FileDescriptorSet withRpc =
        editFile(
            added,
            "antrean/v1/worker_service.proto",
            f ->
                f.toBuilder()
                    .setService(
                        0,
                        f.getService(0).toBuilder()
                            .addMethod(
                                MethodDescriptorProto.newBuilder()
                                    .setName("Brand")
                                    .setInputType(".antrean.v1.LeaseRequest")
                                    .setOutputType(".antrean.v1.LeaseResponse")))
                    .build());
    assertThat(BreakingChanges.between(protocol, withRpc)).isEmpty();
  }

  @Test
  void aRemovedFieldIsBreaking() {
    FileDescriptorSet changed =
        editMessage("Job", m -> m.toBuilder().removeField(fieldIndex(m, "priority")).build());
    assertThat(BreakingChanges.between(protocol, changed))
        .containsExactly("field antrean.v1.Job.priority (6) removed");
  }

  @Test
  void aRenumberedFieldIsBreaking() {
    FileDescriptorSet changed =
        editMessage(
            "Job",
            m ->
                m.toBuilder()
                    .setField(
                        fieldIndex(m, "priority"),
                        m.getField(fieldIndex(m, "priority")).toBuilder().setNumber(60))
                    .build());
    assertThat(BreakingChanges.between(protocol, changed))
        .containsExactly("field antrean.v1.Job.priority (6) renumbered to 60");
  }

  @Test
  void aChangedFieldTypeOrCardinalityIsBreaking() {
    FileDescriptorSet changed =
        editMessage(
            "Job",
            m -> {
              int priority = fieldIndex(m, "priority");
              int queue = fieldIndex(m, "queue");
              return m.toBuilder()
                  .setField(
                      priority,
                      m.getField(priority).toBuilder()
                          .setType(FieldDescriptorProto.Type.TYPE_INT64))
                  .setField(
                      queue,
                      m.getField(queue).toBuilder()
                          .setLabel(FieldDescriptorProto.Label.LABEL_REPEATED))
                  .build();
            });
    assertThat(BreakingChanges.between(protocol, changed))
        .containsExactlyInAnyOrder(
            "field antrean.v1.Job.priority (6) type changed from TYPE_INT32 to TYPE_INT64",
            "field antrean.v1.Job.queue (2) label changed from LABEL_OPTIONAL to LABEL_REPEATED");
  }

  @Test
  void aRenamedFieldIsBreaking() {
    FileDescriptorSet changed =
        editMessage(
            "Job",
            m ->
                m.toBuilder()
                    .setField(
                        fieldIndex(m, "priority"),
                        m.getField(fieldIndex(m, "priority")).toBuilder()
                            .setName("urgency")
                            .setJsonName("urgency"))
                    .build());
    assertThat(BreakingChanges.between(protocol, changed))
        .containsExactly("field antrean.v1.Job.priority (6) name changed from priority to urgency");
  }

  @Test
  void aRemovedMessageEnumValueOrRpcIsBreaking() {
    FileDescriptorSet withoutMessage =
        editFile(
            "antrean/v1/job.proto",
            f -> f.toBuilder().removeMessageType(index(f, "Attempt")).build());
    assertThat(BreakingChanges.between(protocol, withoutMessage))
        .contains("message antrean.v1.Attempt removed");

    FileDescriptorSet withoutValue =
        editFile(
            "antrean/v1/job.proto",
            f -> f.toBuilder().setEnumType(0, f.getEnumType(0).toBuilder().removeValue(5)).build());
    assertThat(BreakingChanges.between(protocol, withoutValue))
        .containsExactly("enum value antrean.v1.JobState.JOB_STATE_CANCELLED = 5 removed");

    FileDescriptorSet withoutRpc =
        editFile(
            "antrean/v1/worker_service.proto",
            f ->
                f.toBuilder()
                    .setService(0, f.getService(0).toBuilder().removeMethod(rpcIndex(f, "Release")))
                    .build());
    assertThat(BreakingChanges.between(protocol, withoutRpc))
        .containsExactly("rpc antrean.v1.WorkerService.Release removed");
  }

  @Test
  void aChangedRpcSignatureIsBreaking() {
    FileDescriptorSet changed =
        editFile(
            "antrean/v1/worker_service.proto",
            f -> {
              int lease = rpcIndex(f, "Lease");
              return f.toBuilder()
                  .setService(
                      0,
                      f.getService(0).toBuilder()
                          .setMethod(
                              lease,
                              f.getService(0).getMethod(lease).toBuilder()
                                  .setServerStreaming(true)))
                  .build();
            });
    assertThat(BreakingChanges.between(protocol, changed))
        .containsExactly(
            "rpc antrean.v1.WorkerService.Lease server streaming changed from false to true");
  }

  @Test
  void aRemovedFileIsBreaking() {
    FileDescriptorSet.Builder set = protocol.toBuilder();
    set.removeFile(fileIndex(protocol, "antrean/v1/admin_service.proto"));
    assertThat(BreakingChanges.between(protocol, set.build()))
        .contains(
            "file antrean/v1/admin_service.proto removed",
            "service antrean.v1.AdminService removed");
  }

  private static FieldDescriptorProto.Builder field(
      String name, int number, FieldDescriptorProto.Type type) {
    return FieldDescriptorProto.newBuilder()
        .setName(name)
        .setNumber(number)
        .setType(type)
        .setLabel(FieldDescriptorProto.Label.LABEL_OPTIONAL);
  }

  private static FileDescriptorSet editMessage(String name, UnaryOperator<DescriptorProto> edit) {
    return editFile(
        "antrean/v1/job.proto",
        f -> f.toBuilder().setMessageType(index(f, name), edit.apply(message(f, name))).build());
  }

  private static FileDescriptorSet editFile(String name, UnaryOperator<FileDescriptorProto> edit) {
    return editFile(protocol, name, edit);
  }

  private static FileDescriptorSet editFile(
      FileDescriptorSet set, String name, UnaryOperator<FileDescriptorProto> edit) {
    int i = fileIndex(set, name);
    return set.toBuilder().setFile(i, edit.apply(set.getFile(i))).build();
  }

  private static int fileIndex(FileDescriptorSet set, String name) {
    for (int i = 0; i < set.getFileCount(); i++) {
      if (set.getFile(i).getName().equals(name)) {
        return i;
      }
    }
    throw new AssertionError("no file " + name);
  }

  private static DescriptorProto message(FileDescriptorProto file, String name) {
    return file.getMessageType(index(file, name));
  }

  private static int index(FileDescriptorProto file, String message) {
    for (int i = 0; i < file.getMessageTypeCount(); i++) {
      if (file.getMessageType(i).getName().equals(message)) {
        return i;
      }
    }
    throw new AssertionError("no message " + message);
  }

  private static int fieldIndex(DescriptorProto message, String field) {
    for (int i = 0; i < message.getFieldCount(); i++) {
      if (message.getField(i).getName().equals(field)) {
        return i;
      }
    }
    throw new AssertionError("no field " + field);
  }

  private static int rpcIndex(FileDescriptorProto file, String rpc) {
    for (int i = 0; i < file.getService(0).getMethodCount(); i++) {
      if (file.getService(0).getMethod(i).getName().equals(rpc)) {
        return i;
      }
    }
    throw new AssertionError("no rpc " + rpc);
  }
}
