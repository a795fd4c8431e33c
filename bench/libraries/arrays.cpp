// SPDX-License-Identifier: BSL-1.0
// Case 14, numeric arrays: an Eigen matrix and a boost::multi_array tensor through bale
// (bale/arrays/), beside memcpy of their elements, Boost.Serialization's best way for the same data
// (the extents, then make_array over the elements) and the raw write Eigen users make by hand.
// Every read goes into an empty array, which it sizes, and is compared with the input.
#include <bale/all.hpp>
#include <bale/arrays/eigen.hpp>
#include <bale/arrays/multi_array.hpp>
#include <cstring>
#include <fstream>
#include <sstream>
#ifdef BALE_BENCH_BOOST
#include <boost/archive/binary_iarchive.hpp>
#include <boost/archive/binary_oarchive.hpp>
#include <boost/serialization/array_wrapper.hpp>
#endif

#include "cases/arrays.hpp"
#include "common/files.hpp"
#include "common/generic_cases.hpp"
#include "common/harness.hpp"
#include "common/membuf.hpp"

namespace {

using cases::matrix;
using cases::tensor;

std::size_t element_count(const matrix& m) {
  return static_cast<std::size_t>(m.size());
}
std::size_t element_count(const tensor& t) {
  return t.num_elements();
}

void empty(matrix& m) {
  m.resize(0, 0);
}
void empty(tensor& t) {
  t.resize(boost::extents[0][0][0]);
}

// The floor: the elements copied, the target sized by a reader that knows the extents.
void size_like(matrix& m, const matrix& like) {
  m.resize(like.rows(), like.cols());
}
void size_like(tensor& t, const tensor& like) {
  t.resize(boost::extents[like.shape()[0]][like.shape()[1]][like.shape()[2]]);
}

struct raw_memcpy {
  static constexpr const char* name = "memcpy";
  template <class T>
  static std::vector<char> write(const T& value) {
    std::vector<char> out(cases::payload_bytes(value));
    std::memcpy(out.data(), value.data(), out.size());
    return out;
  }
  template <class T>
  static void read(std::span<const char> bytes, T& value, const T& like) {
    size_like(value, like);
    std::memcpy(value.data(), bytes.data(), bytes.size());
  }
  template <class T>
  static void write_file(const std::filesystem::path& path, const T& value) {
    bench::write_whole_file(path, value.data(), cases::payload_bytes(value));
  }
  template <class T>
  static void read_file(const std::filesystem::path& path, T& value, const T& like) {
    const bench::mapped_file file(path);
    read(file.bytes(), value, like);
  }
};

struct bale_binary {
  static constexpr const char* name = "bale";
  static bale::file_options options() {
    bale::file_options o;
    o.sync = false;
    return o;
  }
  template <class T>
  static std::vector<std::byte> write(const T& value) {
    return bale::serialize(value);
  }
  template <class T>
  static void read(std::span<const char> bytes, T& value, const T&) {
    bale::deserialize(bytes, value);
  }
  template <class T>
  static void write_file(const std::filesystem::path& path, const T& value) {
    bale::save_file(path, value, options());
  }
  template <class T>
  static void read_file(const std::filesystem::path& path, T& value, const T&) {
    bale::load_file(path, value, options());
  }
};

#ifdef BALE_BENCH_BOOST
// Boost.Serialization has no Eigen or multi_array support: a user writes the extents and then the
// elements with make_array, which its binary archives copy as one block.
struct boost_make_array {
  static constexpr const char* name = "boost";
  template <class Archive>
  static void save(Archive& ar, const matrix& m) {
    const Eigen::Index rows = m.rows(), cols = m.cols();
    ar << rows << cols << boost::serialization::make_array(m.data(), element_count(m));
  }
  template <class Archive>
  static void save(Archive& ar, const tensor& t) {
    const std::size_t n0 = t.shape()[0], n1 = t.shape()[1], n2 = t.shape()[2];
    ar << n0 << n1 << n2 << boost::serialization::make_array(t.data(), element_count(t));
  }
  template <class Archive>
  static void load(Archive& ar, matrix& m) {
    Eigen::Index rows = 0, cols = 0;
    ar >> rows >> cols;
    m.resize(rows, cols);
    ar >> boost::serialization::make_array(m.data(), element_count(m));
  }
  template <class Archive>
  static void load(Archive& ar, tensor& t) {
    std::size_t n0 = 0, n1 = 0, n2 = 0;
    ar >> n0 >> n1 >> n2;
    t.resize(boost::extents[n0][n1][n2]);
    ar >> boost::serialization::make_array(t.data(), element_count(t));
  }
  template <class T>
  static std::string write(const T& value) {
    std::ostringstream os(std::ios::binary);
    {
      boost::archive::binary_oarchive ar(os);
      save(ar, value);
    }
    return std::move(os).str();
  }
  template <class T>
  static void read(std::span<const char> bytes, T& value, const T&) {
    bench::memory_streambuf buffer(bytes);
    std::istream is(&buffer);
    boost::archive::binary_iarchive ar(is);
    load(ar, value);
  }
  template <class T>
  static void write_file(const std::filesystem::path& path, const T& value) {
    std::ofstream os(path, std::ios::binary);
    boost::archive::binary_oarchive ar(os);
    save(ar, value);
  }
  template <class T>
  static void read_file(const std::filesystem::path& path, T& value, const T&) {
    std::ifstream is(path, std::ios::binary);
    boost::archive::binary_iarchive ar(is);
    load(ar, value);
  }
};
#endif

// What Eigen users write by hand for a file: the sizes, then the coefficients, through streams.
struct eigen_raw {
  static constexpr const char* name = "eigen_raw";
  static void write_file(const std::filesystem::path& path, const matrix& m) {
    std::ofstream os(path, std::ios::binary);
    const Eigen::Index sizes[2] = {m.rows(), m.cols()};
    os.write(reinterpret_cast<const char*>(sizes), sizeof sizes);
    os.write(reinterpret_cast<const char*>(m.data()),
             static_cast<std::streamsize>(cases::payload_bytes(m)));
  }
  static void read_file(const std::filesystem::path& path, matrix& m, const matrix&) {
    std::ifstream is(path, std::ios::binary);
    Eigen::Index sizes[2] = {0, 0};
    is.read(reinterpret_cast<char*>(sizes), sizeof sizes);
    m.resize(sizes[0], sizes[1]);
    is.read(reinterpret_cast<char*>(m.data()),
            static_cast<std::streamsize>(cases::payload_bytes(m)));
  }
};

template <class Lib, class T>
void memory_rows(const std::string& case_name, const T& (*input)()) {
  bench::write_case<Lib>(case_name, input, bench::cost::fast, bench::encoding_for<Lib>(input));
  bench::add(case_name + "/" + Lib::name + "/read", [input](benchmark::State& state) {
    const T& value = input();
    const auto bytes = Lib::write(value);
    const std::span<const char> chars(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    T back;
    for (auto _ : state) {
      state.PauseTiming();
      empty(back);
      state.ResumeTiming();
      Lib::read(chars, back, value);
      benchmark::DoNotOptimize(back.data());
    }
    bench::require(state, back == value, "decoded array differs from the input");
    bench::report(state, cases::payload_bytes(value), bytes.size());
  });
}

template <class Lib, class T>
void file_rows(const std::string& case_name, const T& (*input)()) {
  const auto path = bench::scratch_file(case_name + "." + Lib::name);
  bench::add(case_name + "/" + Lib::name + "/write_file", [input, path](benchmark::State& state) {
    const T& value = input();
    for (auto _ : state) Lib::write_file(path, value);
    bench::report(state, cases::payload_bytes(value), std::filesystem::file_size(path));
  });
  bench::add(case_name + "/" + Lib::name + "/read_file_cold",
             [input, path](benchmark::State& state) {
               const T& value = input();
               if (!std::filesystem::exists(path)) Lib::write_file(path, value);
               T back;
               for (auto _ : state) {
                 state.PauseTiming();
                 bench::evict_from_page_cache(path);
                 empty(back);
                 state.ResumeTiming();
                 Lib::read_file(path, back, value);
                 benchmark::DoNotOptimize(back.data());
               }
               bench::require(state, back == value, "file decoded differs from the input");
               bench::report(state, cases::payload_bytes(value), std::filesystem::file_size(path));
             });
}

template <class Lib, class T>
void all_rows(const std::string& case_name, const T& (*input)()) {
  memory_rows<Lib>(case_name, input);
  file_rows<Lib>(case_name, input);
}

const bench::library_registration registration([] {
  all_rows<raw_memcpy>("matrix", &cases::big_matrix);
  all_rows<bale_binary>("matrix", &cases::big_matrix);
  file_rows<eigen_raw>("matrix", &cases::big_matrix);
  all_rows<raw_memcpy>("tensor", &cases::big_tensor);
  all_rows<bale_binary>("tensor", &cases::big_tensor);
#ifdef BALE_BENCH_BOOST
  all_rows<boost_make_array>("matrix", &cases::big_matrix);
  all_rows<boost_make_array>("tensor", &cases::big_tensor);
#endif
});

}  // namespace
