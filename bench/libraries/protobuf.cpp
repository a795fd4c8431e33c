// protobuf 3.21: generated messages, SerializeToString / ParseFromArray, filled from and read back
// into the C++ types.
#include "bench.pb.h"
#include "common/schema_cases.hpp"

namespace {

struct protobuf_codec {
  static constexpr const char* name = "protobuf";

  static std::string encode(const std::vector<double>& v) {
    bench::pb::DoubleArray message;
    message.mutable_values()->Add(v.begin(), v.end());
    return message.SerializeAsString();
  }
  static void decode(std::span<const char> bytes, std::vector<double>& v) {
    bench::pb::DoubleArray message;
    if (!message.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())))
      throw std::runtime_error("parse");
    v.assign(message.values().begin(), message.values().end());
  }

  static std::string encode(const std::vector<cases::seed_element>& elements) {
    bench::pb::SeedElements message;
    message.mutable_elements()->Reserve(static_cast<int>(elements.size()));
    for (const auto& e : elements) {
      auto* out = message.add_elements();
      out->mutable_vec()->Add(std::begin(e.vec), std::end(e.vec));
      out->set_i(e.i);
      out->set_f(e.f);
    }
    return message.SerializeAsString();
  }
  static void decode(std::span<const char> bytes, std::vector<cases::seed_element>& elements) {
    bench::pb::SeedElements message;
    if (!message.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())))
      throw std::runtime_error("parse");
    elements.resize(static_cast<std::size_t>(message.elements_size()));
    for (int k = 0; k < message.elements_size(); ++k) {
      const auto& in = message.elements(k);
      auto& e = elements[static_cast<std::size_t>(k)];
      if (in.vec_size() != 4) throw std::runtime_error("vec");
      std::copy(in.vec().begin(), in.vec().end(), e.vec);
      e.i = in.i();
      e.f = in.f();
    }
  }

  static std::string encode(const cases::tuple_message& t) {
    bench::pb::TupleMessage message;
    message.set_a(std::get<0>(t));
    message.set_b(std::get<1>(t));
    message.set_c(std::string(std::get<2>(t).begin(), std::get<2>(t).end()));
    message.set_d(std::get<3>(t));
    return message.SerializeAsString();
  }
  static void decode(std::span<const char> bytes, cases::tuple_message& t) {
    bench::pb::TupleMessage message;
    if (!message.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())))
      throw std::runtime_error("parse");
    std::get<0>(t) = message.a();
    std::get<1>(t) = message.b();
    std::get<2>(t).assign(message.c().begin(), message.c().end());
    std::get<3>(t) = message.d();
  }

  static std::string encode(const cases::sparse_matrix& m) {
    bench::pb::SparseMatrix message;
    for (const auto& row : m) {
      auto* out = message.add_rows();
      out->mutable_columns()->Add(row.columns.begin(), row.columns.end());
      out->mutable_values()->Add(row.values.begin(), row.values.end());
    }
    return message.SerializeAsString();
  }
  static void decode(std::span<const char> bytes, cases::sparse_matrix& m) {
    bench::pb::SparseMatrix message;
    if (!message.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())))
      throw std::runtime_error("parse");
    m.resize(static_cast<std::size_t>(message.rows_size()));
    for (int r = 0; r < message.rows_size(); ++r) {
      const auto& in = message.rows(r);
      m[static_cast<std::size_t>(r)].columns.assign(in.columns().begin(), in.columns().end());
      m[static_cast<std::size_t>(r)].values.assign(in.values().begin(), in.values().end());
    }
  }

  static std::string encode(const cases::hash_map& map) {
    bench::pb::HashMap message;
    auto& entries = *message.mutable_entries();
    for (const auto& [key, value] : map) entries[key] = value;
    return message.SerializeAsString();
  }
  static void decode(std::span<const char> bytes, cases::hash_map& map) {
    bench::pb::HashMap message;
    if (!message.ParseFromArray(bytes.data(), static_cast<int>(bytes.size())))
      throw std::runtime_error("parse");
    map.clear();
    map.reserve(static_cast<std::size_t>(message.entries_size()));
    for (const auto& [key, value] : message.entries()) map.emplace(key, value);
  }
};

const bench::library_registration registration([] { bench::schema_cases<protobuf_codec>(); });

}  // namespace
