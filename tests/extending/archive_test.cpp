// SPDX-License-Identifier: BSL-1.0
// docs/extending.md, "An archive pair": a small self-describing text format written against the
// archive contract (core/archive.hpp) alone. One token per line: `i -5`, `u 7`, `f <hex float>`,
// `b 1`, `s <bytes>` then the bytes, `[ n` / `( n` / `{ n` before n elements, tuple values or map
// entries, `<` ... `>` around a type's members with `k name` before each named one, `-` for an
// empty optional and `+` before a present one's value, `v i` before a variant's alternative, `0`
// for std::monostate (an enum is its number);
// a pointer is `p -` (null), `p r n` (object n, met before), `p c n` (a unique pointer's claim on
// object n) or `p n n [type]` (a new object), the outermost pointer's bodies after it.
#include <gtest/gtest.h>

#include <bale/all.hpp>
#include <bit>
#include <charconv>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace lines {

using bale::detail::archive_base;

// Integers and characters travel as the widest integer of their signedness; bool as 0 or 1.
template <class T>
using wide = std::conditional_t<std::is_signed_v<T>, long long, unsigned long long>;
// Floats travel as their bits in hexadecimal: exact, and the same on every standard library.
template <class T>
using bits_of = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
template <class T>
constexpr char tag_of() {
  if constexpr (std::is_same_v<T, bool>)
    return 'b';
  else if constexpr (std::is_floating_point_v<T>)
    return 'f';
  else
    return std::is_signed_v<T> ? 'i' : 'u';
}

// [writer]
template <class Sink>
class writer : public archive_base<writer<Sink>> {
 public:
  static constexpr bool is_loading = false, is_saving = true, self_describing = true;
  template <class T>
  static constexpr bool bulk = false;  // every value is text: nothing moves as one memcpy

  writer(Sink& sink, bale::detail::write_context& context) : sink_(sink), context_(context) {}

  template <class T>
  void process(const T& value) {
    if constexpr (bale::detail::is_named_value<T>) {
      write_field(value.name, value.value);
    } else {
      bale::serializer<T>::save(*this, value);
    }
  }
  template <class T>
  void write_scalar(T v) {
    char text[64];
    std::to_chars_result r;
    if constexpr (std::is_floating_point_v<T>)
      r = std::to_chars(text, text + 64, std::bit_cast<bits_of<T>>(v), 16);
    else
      r = std::to_chars(text, text + 64, static_cast<wide<T>>(v));
    line(tag_of<T>(), std::string_view(text, static_cast<std::size_t>(r.ptr - text)));
  }
  template <class Ch, class Tr>
  void write_text(std::basic_string_view<Ch, Tr> text) {
    if constexpr (sizeof(Ch) == 1) {
      line('s', std::to_string(text.size()));
      sink_.put(text.data(), text.size());
      sink_.put("\n", 1);
    } else {
      write_sequence(text.size(), [&] {
        for (Ch c : text) write_scalar(c);
      });
    }
  }
  template <class F>
  void write_sequence(std::size_t n, F&& f) {
    line('[', std::to_string(n));
    f();
  }
  template <class T>
  void write_contiguous_sequence(const T* p, std::size_t n) {
    write_sequence(n, [&] { write_contiguous(p, n); });
  }
  template <class T>
  void write_contiguous(const T* p, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) process(p[i]);
  }
  template <class F>
  void write_tuple(std::size_t n, F&& f) {
    line('(', std::to_string(n));
    f();
  }
  template <class Key, class F>
  void write_map(std::size_t n, F&& f) {
    line('{', std::to_string(n));
    f();
  }
  template <class K, class V>
  void write_map_entry(const K& k, const V& v) {
    process(k);
    process(v);
  }
  template <class Names, class... Ms>
  void write_object(const Ms&... members) {
    std::size_t i = 0;
    write_composite([&] { (write_field(Names::value[i++], members), ...); });
  }
  template <class F>
  void write_composite(F&& f) {
    line('<', "");
    f();
    line('>', "");
  }
  template <class T>
  void write_field(std::string_view name, const T& v) {
    line('k', name);
    process(v);
  }
  void write_version(std::uint32_t v) { line('#', std::to_string(v)); }
  template <class F>
  void write_optional(bool present, F&& f) {
    line(present ? '+' : '-', "");
    if (present) f();
  }
  template <class F>
  void write_variant(std::size_t index, F&& f) {
    line('v', std::to_string(index));
    f();
  }
  template <class E>
  void write_enum(E e) {
    write_scalar(static_cast<std::underlying_type_t<E>>(e));
  }
  void write_none() { line('0', ""); }

  // The graph numbers objects and keeps their bodies; the format only spells the pointers.
  void write_null_pointer(bale::pointer_role) { line('p', "-"); }
  void write_object_reference(bale::pointer_role, std::uint32_t n, bool claim) {
    line('p', (claim ? "c " : "r ") + std::to_string(n));
  }
  template <class F>
  void write_new_object(bale::pointer_role, std::uint32_t n, const bale::object_type& type,
                        bool outermost, F&& write_bodies) {
    std::string text = "n " + std::to_string(n);
    if (type.tagged) text += " " + std::string(type.name);
    line('p', text);
    if (outermost) write_bodies();
  }

  [[noreturn]] void fail(bale::errc code, std::string detail) const {
    throw bale::error(code, std::move(detail), sink_.size());
  }
  bale::detail::write_context& context() const { return context_; }

 private:
  void line(char tag, std::string_view rest) {
    const char head[2] = {tag, ' '};
    sink_.put(head, 2);
    sink_.put(rest.data(), rest.size());
    sink_.put("\n", 1);
  }
  Sink& sink_;
  bale::detail::write_context& context_;
};
// [writer]

// [reader]
class reader : public archive_base<reader> {
 public:
  static constexpr bool is_loading = true, is_saving = false, self_describing = true;
  template <class T>
  static constexpr bool bulk = false;

  reader(std::span<const std::byte> in, bale::detail::read_context& context)
      : begin_(reinterpret_cast<const char*>(in.data())),
        pos_(begin_),
        end_(pos_ + in.size()),
        context_(context) {}

  template <class T>
  void process(T& value) {
    if constexpr (bale::detail::is_named_value<T>) {
      read_field(value.name, value.value);
    } else {
      bale::serializer<T>::load(*this, value);
    }
  }
  template <class T>
  void read_scalar(T& v) {
    const std::string_view text = expect(tag_of<T>());
    const char* end = text.data() + text.size();
    std::from_chars_result r{};
    if constexpr (std::is_floating_point_v<T>) {
      bits_of<T> bits = 0;
      r = std::from_chars(text.data(), end, bits, 16);
      v = std::bit_cast<T>(bits);
    } else {
      wide<T> w{};
      r = std::from_chars(text.data(), end, w);
      using limits = std::numeric_limits<T>;
      if (w < static_cast<wide<T>>(limits::min()) || w > static_cast<wide<T>>(limits::max()))
        r.ec = std::errc::result_out_of_range;
      v = static_cast<T>(w);
    }
    if (r.ec != std::errc{} || r.ptr != end)
      fail(bale::errc::invalid_value, "bad number \"" + std::string(text) + "\"");
  }
  template <class Ch, class Tr, class A>
  void read_text(std::basic_string<Ch, Tr, A>& s) {
    if constexpr (sizeof(Ch) == 1) {
      const std::span<const Ch> bytes = read_view<Ch>();
      s.assign(bytes.data(), bytes.size());
    } else {
      read_sequence<Ch>([&](std::size_t n) { s.resize(n); },
                        [&](reader& ar, std::size_t i) { ar.read_scalar(s[i]); });
    }
  }
  template <class T>
  std::span<const T> read_view() {
    const std::size_t n = count('s', 1);
    const char* at = take(n + 1);
    if (at[n] != '\n') fail(bale::errc::invalid_value, "string does not end its line");
    return {reinterpret_cast<const T*>(at), n};
  }
  template <class E, class OnCount, class OnElement>
  void read_sequence(OnCount&& on_count, OnElement&& on_element) {
    const bale::detail::nesting_guard guard(*this);
    const std::size_t n = count('[', sizeof(E));
    on_count(n);
    bale::detail::for_each_index(n, [&](std::size_t i) {
      if constexpr (std::is_invocable_v<OnElement&, reader&, std::size_t>)
        on_element(*this, i);
      else
        on_element(*this);
    });
  }
  template <class T, class Target>
  void read_sequence_into(Target&& target) {
    const bale::detail::nesting_guard guard(*this);
    const std::size_t n = count('[', sizeof(T));
    T* data = target.resize(n);  // one call: this format knows the count up front
    read_contiguous(data, n);
  }
  template <class T>
  void read_contiguous(T* p, std::size_t n) {
    bale::detail::for_each_index(n, [&](std::size_t i) { process(p[i]); });
  }
  template <class F>
  void read_tuple(std::size_t n, F&& f) {
    if (count('(', 0) != n)
      fail(bale::errc::invalid_value, "expected " + std::to_string(n) + " values");
    f();
  }
  template <class Entry, class OnCount, class OnEntry>
  void read_map(OnCount&& on_count, OnEntry&& on_entry) {
    const bale::detail::nesting_guard guard(*this);
    const std::size_t n = count('{', sizeof(Entry));
    on_count(n);
    bale::detail::for_each_index(n, [&](std::size_t) { on_entry(*this); });
  }
  template <class K, class V>
  void read_map_entry(K& k, V& v) {
    process(k);
    process(v);
  }
  template <class Names, class... Ms>
  void read_object(Ms&... members) {
    std::size_t i = 0;
    read_composite([&] { (read_field(Names::value[i++], members), ...); });
  }
  template <class F>
  void read_composite(F&& f) {
    const bale::detail::nesting_guard guard(*this);
    expect('<');
    f();
    expect('>');
  }
  std::uint32_t read_version() {
    const std::string text(expect('#'));
    if (text.empty() || text.size() > 9 || text.find_first_not_of("0123456789") != text.npos)
      fail(bale::errc::invalid_value, "expected a version");
    return static_cast<std::uint32_t>(std::stoul(text));
  }
  template <class T>
  void read_field(std::string_view name, T& v) {
    if (expect('k') != name)
      fail(bale::errc::invalid_value, "expected member " + std::string(name));
    bale::detail::within_field(name, [&] { process(v); });
  }
  template <class F>
  void read_optional(F&& on_present) {
    const char tag = peek();
    expect(tag == '+' ? '+' : '-');
    if (tag == '+') on_present();
  }
  template <class F>
  void read_variant(std::size_t alternatives, F&& on_index) {
    const std::size_t i = count('v', 0);
    if (i >= alternatives) fail(bale::errc::invalid_value, "no alternative " + std::to_string(i));
    on_index(i);
  }
  template <class E>
  void read_enum(E& e) {
    std::underlying_type_t<E> raw;
    read_scalar(raw);
    e = static_cast<E>(raw);
  }
  void read_none() { expect('0'); }

  template <class Handler>
  void read_pointer(bale::pointer_role, Handler& handler) {
    const std::size_t at = offset();
    const std::string_view text = expect('p');
    if (text == "-") return;
    if (text.size() < 3 || text.find_first_of("rcn") != 0 || text[1] != ' ')
      fail_at(bale::errc::invalid_value, "bad pointer", at);
    const std::size_t space = std::min(text.find(' ', 2), text.size());
    std::uint64_t n = 0;
    const auto r = std::from_chars(text.data() + 2, text.data() + space, n);
    if (r.ec != std::errc{} || r.ptr != text.data() + space)
      fail_at(bale::errc::invalid_value, "bad pointer", at);
    if (text[0] != 'n') return handler.reference(n, at);
    bale::object_type_read type;
    type.by_name = true;
    type.at = at;
    if (handler.typed() && space < text.size()) type.name = std::string(text.substr(space + 1));
    handler.fresh(type, n, at, [&] { handler.read_all_bodies(*this); });
  }

  std::size_t offset() const { return static_cast<std::size_t>(pos_ - begin_); }
  std::size_t remaining() const { return static_cast<std::size_t>(end_ - pos_); }
  [[noreturn]] void fail(bale::errc code, std::string detail) const {
    fail_at(code, std::move(detail), offset());
  }
  [[noreturn]] void fail_at(bale::errc code, std::string detail, std::size_t at) const {
    throw bale::error(code, std::move(detail), at);
  }
  bale::detail::read_context& context() const { return context_; }

 private:
  char peek() const {
    if (pos_ == end_) fail(bale::errc::end_of_input, "expected a line");
    return *pos_;
  }
  const char* take(std::size_t n) {
    if (n > remaining()) fail(bale::errc::end_of_input, "need " + std::to_string(n) + " bytes");
    const char* at = pos_;
    pos_ += n;
    return at;
  }
  // One line `tag rest`: returns rest.
  std::string_view expect(char tag) {
    const std::size_t at = offset();
    const char* newline = std::find(pos_, end_, '\n');
    if (newline == end_) fail(bale::errc::end_of_input, "line without an end");
    const std::string_view line(pos_, static_cast<std::size_t>(newline - pos_));
    if (line.size() < 2 || line[0] != tag || line[1] != ' ')
      fail_at(bale::errc::invalid_value, std::string("expected a '") + tag + "' line", at);
    pos_ = newline + 1;
    return line.substr(2);
  }
  // A count the input must pay for (each element takes at least two bytes), charged to the
  // allocation budget before the caller allocates.
  std::size_t count(char tag, std::size_t element_size) {
    const std::size_t at = offset();
    std::size_t n = 0;
    const std::string_view text = expect(tag);
    const auto r = std::from_chars(text.data(), text.data() + text.size(), n);
    if (r.ec != std::errc{} || r.ptr != text.data() + text.size())
      fail_at(bale::errc::invalid_value, "bad count", at);
    if (tag != 's' && tag != 'v' && n > remaining() / 2)
      fail_at(bale::errc::length_too_large, "count beyond the input", at);
    if (!context_.try_charge(n, element_size))
      fail_at(bale::errc::allocation_limit, "allocation limit", at);
    return n;
  }

  const char* begin_;
  const char* pos_;
  const char* end_;
  bale::detail::read_context& context_;
};
// [reader]

// [tag]
struct format {
  static constexpr std::string_view name = "lines";
  static constexpr std::uint8_t id = 65;
  static constexpr bool sizes_first = false;  // written once into a growing buffer
  template <class Sink>
  using writer = lines::writer<Sink>;
  using reader = lines::reader;
};
static_assert(bale::format<format>);
// [tag]

}  // namespace lines

namespace {

struct order {
  std::uint32_t id;
  std::string customer;
  std::vector<double> amounts;
  std::map<std::string, int> stock;
  std::optional<std::variant<int, std::string>> note;
  std::u16string title;
  bool operator==(const order&) const = default;
};

std::string text_of(const std::vector<std::byte>& bytes) {
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

TEST(ExtendingArchive, EveryTypeThroughTheContract) {
  const order o{7,    "ada", {0.5, -1e300}, {{"pen", 3}}, std::variant<int, std::string>("rush"),
                u"ok"};
  const auto bytes = bale::serialize<lines::format>(o);
  EXPECT_EQ(text_of(bytes).substr(0, 23), "< \nk id\nu 7\nk customer\n");
  EXPECT_EQ((bale::deserialize<order, lines::format>(bytes)), o);
  const std::vector<order> many{o, order{}};
  EXPECT_EQ(
      (bale::deserialize<std::vector<order>, lines::format>(bale::serialize<lines::format>(many))),
      many);
}

enum class colour : std::uint8_t { red = 3, blue = 9 };
struct painted {
  colour c;
  std::variant<std::monostate, colour> maybe;
  bool operator==(const painted&) const = default;
};

TEST(ExtendingArchive, EnumsAndEmptyAlternativesThroughTheirVerbs) {
  const painted p{colour::blue, std::monostate{}};
  const auto bytes = bale::serialize<lines::format>(p);
  EXPECT_EQ(text_of(bytes), "< \nk c\nu 9\nk maybe\nv 0\n0 \n> \n");
  EXPECT_EQ((bale::deserialize<painted, lines::format>(bytes)), p);
  const painted q{colour::red, colour::blue};
  EXPECT_EQ((bale::deserialize<painted, lines::format>(bale::serialize<lines::format>(q))), q);
}

struct links {
  std::shared_ptr<order> first;
  std::shared_ptr<order> again;  // the same object
  std::weak_ptr<order> weak;
  bale::observer<order> watcher;
  std::unique_ptr<int> own;
};

TEST(ExtendingArchive, PointersThroughTheContract) {
  links l;
  l.first = std::make_shared<order>(order{9, "bo", {}, {}, std::nullopt, u""});
  l.again = l.first;
  l.weak = l.first;
  l.watcher = l.first.get();
  l.own = std::make_unique<int>(4);
  const auto bytes = bale::serialize<lines::format>(l);
  EXPECT_NE(text_of(bytes).find("p n 0\n"), std::string::npos);
  EXPECT_NE(text_of(bytes).find("p r 0\n"), std::string::npos);
  const auto back = bale::deserialize<links, lines::format>(bytes);
  ASSERT_NE(back.first, nullptr);
  EXPECT_EQ(*back.first, *l.first);
  EXPECT_EQ(back.again, back.first);
  EXPECT_EQ(back.weak.lock(), back.first);
  EXPECT_EQ(back.watcher.get(), back.first.get());
  ASSERT_NE(back.own, nullptr);
  EXPECT_EQ(*back.own, 4);
  // The graph checks what the format read: a reference to an object not yet made.
  std::string forward = text_of(bytes);
  forward.replace(forward.find("p n 0\n"), 6, "p r 5\n");
  auto r = bale::try_deserialize<links, lines::format>(forward);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message().find("a reference to object 5"), std::string::npos);
}

TEST(ExtendingArchive, DamagedInputFailsCleanly) {
  const auto bytes = bale::serialize<lines::format>(
      std::vector<order>{{1, "x", {2.5}, {{"a", 1}}, std::nullopt, u"t"}});
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    auto r = bale::try_deserialize<std::vector<order>, lines::format>(
        std::span<const std::byte>(bytes.data(), n));
    EXPECT_FALSE(r) << n;
  }
  const std::string hostile = "[ 99999999999\n";
  auto r = bale::try_deserialize<std::vector<int>, lines::format>(hostile);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code(), bale::errc::length_too_large);
}

}  // namespace
