package io.antrean.proto.compat;

import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.EnumDescriptorProto;
import com.google.protobuf.DescriptorProtos.EnumValueDescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorSet;
import com.google.protobuf.DescriptorProtos.MethodDescriptorProto;
import com.google.protobuf.DescriptorProtos.ServiceDescriptorProto;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The changes from a baseline descriptor set to the current one that break a client generated from
 * the baseline, on the wire, in its generated code or in the JSON mapping: a removed file, message,
 * enum, enum value, service or RPC; a removed, renumbered or renamed field; a field whose type,
 * cardinality, presence or oneof changed; an RPC whose request, response or streaming changed; a
 * changed package or Java package. Additions (files, messages, fields, enum values, services, RPCs)
 * are not breaking. Pure: reads two descriptor sets, returns messages.
 */
final class BreakingChanges {
  private final List<String> found = new ArrayList<>();

  private BreakingChanges() {}

  /** One sentence per breaking change, in baseline order; empty when the change is compatible. */
  static List<String> between(FileDescriptorSet baseline, FileDescriptorSet current) {
    BreakingChanges changes = new BreakingChanges();
    changes.compare(baseline, current);
    return List.copyOf(changes.found);
  }

  private void compare(FileDescriptorSet baseline, FileDescriptorSet current) {
    Map<String, FileDescriptorProto> files = new LinkedHashMap<>();
    current.getFileList().forEach(f -> files.put(f.getName(), f));
    Index was = Index.of(baseline);
    Index now = Index.of(current);
    for (FileDescriptorProto file : baseline.getFileList()) {
      FileDescriptorProto after = files.get(file.getName());
      if (after == null) {
        found.add("file " + file.getName() + " removed");
        continue;
      }
      same(file.getName() + " package", file.getPackage(), after.getPackage());
      same(
          file.getName() + " java_package",
          file.getOptions().getJavaPackage(),
          after.getOptions().getJavaPackage());
      same(
          file.getName() + " java_multiple_files",
          file.getOptions().getJavaMultipleFiles(),
          after.getOptions().getJavaMultipleFiles());
    }
    was.messages.forEach((name, message) -> compareMessage(name, message, now.messages.get(name)));
    was.enums.forEach((name, e) -> compareEnum(name, e, now.enums.get(name)));
    was.services.forEach((name, s) -> compareService(name, s, now.services.get(name)));
  }

  private void compareMessage(String name, DescriptorProto was, DescriptorProto now) {
    if (now == null) {
      found.add("message " + name + " removed");
      return;
    }
    Map<Integer, FieldDescriptorProto> byNumber = new LinkedHashMap<>();
    Map<String, FieldDescriptorProto> byName = new LinkedHashMap<>();
    for (FieldDescriptorProto field : now.getFieldList()) {
      byNumber.put(field.getNumber(), field);
      byName.put(field.getName(), field);
    }
    for (FieldDescriptorProto field : was.getFieldList()) {
      String where = name + "." + field.getName() + " (" + field.getNumber() + ")";
      FieldDescriptorProto renamed = byName.get(field.getName());
      FieldDescriptorProto after = byNumber.get(field.getNumber());
      if (renamed != null && renamed.getNumber() != field.getNumber()) {
        found.add("field " + where + " renumbered to " + renamed.getNumber());
        continue;
      }
      if (after == null) {
        found.add("field " + where + " removed");
        continue;
      }
      same("field " + where + " name", field.getName(), after.getName());
      same("field " + where + " type", typeOf(field), typeOf(after));
      same("field " + where + " label", field.getLabel(), after.getLabel());
      same(
          "field " + where + " explicit presence",
          field.getProto3Optional(),
          after.getProto3Optional());
      same("field " + where + " oneof", oneofOf(was, field), oneofOf(now, after));
    }
  }

  private void compareEnum(String name, EnumDescriptorProto was, EnumDescriptorProto now) {
    if (now == null) {
      found.add("enum " + name + " removed");
      return;
    }
    Map<Integer, String> values = new LinkedHashMap<>();
    now.getValueList().forEach(v -> values.putIfAbsent(v.getNumber(), v.getName()));
    for (EnumValueDescriptorProto value : was.getValueList()) {
      String after = values.get(value.getNumber());
      if (after == null) {
        found.add(
            "enum value " + name + "." + value.getName() + " = " + value.getNumber() + " removed");
      } else {
        same("enum value " + name + " = " + value.getNumber() + " name", value.getName(), after);
      }
    }
  }

  private void compareService(String name, ServiceDescriptorProto was, ServiceDescriptorProto now) {
    if (now == null) {
      found.add("service " + name + " removed");
      return;
    }
    Map<String, MethodDescriptorProto> methods = new LinkedHashMap<>();
    now.getMethodList().forEach(m -> methods.put(m.getName(), m));
    for (MethodDescriptorProto method : was.getMethodList()) {
      String where = "rpc " + name + "." + method.getName();
      MethodDescriptorProto after = methods.get(method.getName());
      if (after == null) {
        found.add(where + " removed");
        continue;
      }
      same(where + " request", method.getInputType(), after.getInputType());
      same(where + " response", method.getOutputType(), after.getOutputType());
      same(where + " client streaming", method.getClientStreaming(), after.getClientStreaming());
      same(where + " server streaming", method.getServerStreaming(), after.getServerStreaming());
    }
  }

  private void same(String what, Object was, Object now) {
    if (!Objects.equals(was, now)) {
      found.add(what + " changed from " + was + " to " + now);
    }
  }

  private static String typeOf(FieldDescriptorProto field) {
    return field.hasTypeName() ? field.getTypeName() : field.getType().name();
  }

  private static String oneofOf(DescriptorProto message, FieldDescriptorProto field) {
    if (!field.hasOneofIndex() || field.getProto3Optional()) {
      return "none";
    }
    return message.getOneofDecl(field.getOneofIndex()).getName();
  }

  /** Every message, enum and service of a descriptor set by its full name. */
  private record Index(
      Map<String, DescriptorProto> messages,
      Map<String, EnumDescriptorProto> enums,
      Map<String, ServiceDescriptorProto> services) {

    static Index of(FileDescriptorSet set) {
      Index index = new Index(new LinkedHashMap<>(), new LinkedHashMap<>(), new LinkedHashMap<>());
      for (FileDescriptorProto file : set.getFileList()) {
        String prefix = file.getPackage().isEmpty() ? "" : file.getPackage() + ".";
        file.getMessageTypeList().forEach(m -> index.addMessage(prefix + m.getName(), m));
        file.getEnumTypeList().forEach(e -> index.enums.put(prefix + e.getName(), e));
        file.getServiceList().forEach(s -> index.services.put(prefix + s.getName(), s));
      }
      return index;
    }

    private void addMessage(String name, DescriptorProto message) {
      messages.put(name, message);
      message.getNestedTypeList().forEach(m -> addMessage(name + "." + m.getName(), m));
      message.getEnumTypeList().forEach(e -> enums.put(name + "." + e.getName(), e));
    }
  }
}
