// SPDX-License-Identifier: BSL-1.0
// bale::observer<T>: non-owning pointers to objects that a pointer of the same message owns, met
// before or after their owner, through cycles and base classes, in every format; and the errors:
// an observed object no pointer owns (on writing and on reading), one only weak_ptrs hold, one
// owned twice, hostile claims.
#include <gtest/gtest.h>
#include <pthread.h>

#include <bale/all.hpp>
#include <bale/file/file.hpp>
#include <bale/registry.hpp>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "graph/graph_formats.hpp"

namespace {

template <class Format>
class Observer : public ::testing::Test {};
TYPED_TEST_SUITE(Observer, graph_formats, format_names);

struct tree_node {
  int value = 0;
  bale::observer<tree_node> parent;
  std::vector<std::unique_ptr<tree_node>> children;
  BALE_REFLECT(tree_node, value, parent, children)
};

TYPED_TEST(Observer, ParentPointersComeBackPointingAtTheParent) {
  using Format = TypeParam;
  auto root = std::make_unique<tree_node>();
  root->value = 1;
  for (int i = 0; i < 3; ++i) {
    auto child = std::make_unique<tree_node>();
    child->value = 10 + i;
    child->parent = root.get();
    for (int j = 0; j < 2; ++j) {
      auto grandchild = std::make_unique<tree_node>();
      grandchild->value = 100 * i + j;
      grandchild->parent = child.get();
      child->children.push_back(std::move(grandchild));
    }
    root->children.push_back(std::move(child));
  }
  const auto back =
      bale::deserialize<std::unique_ptr<tree_node>, Format>(bale::serialize<Format>(root));
  ASSERT_TRUE(back);
  EXPECT_EQ(back->parent.get(), nullptr);
  ASSERT_EQ(back->children.size(), 3u);
  for (int i = 0; i < 3; ++i) {
    const tree_node& child = *back->children[static_cast<std::size_t>(i)];
    EXPECT_EQ(child.value, 10 + i);
    EXPECT_EQ(child.parent.get(), back.get());
    ASSERT_EQ(child.children.size(), 2u);
    for (const auto& grandchild : child.children) EXPECT_EQ(grandchild->parent.get(), &child);
  }
}

struct vertex {
  double x = 0;
  bale::observer<vertex> next;  // a ring through observers: a cycle
  BALE_REFLECT(vertex, x, next)
};
struct edge {
  bale::observer<vertex> from;
  bale::observer<const vertex> to;
  BALE_REFLECT(edge, from, to)
};
// Edges come first: every observer there meets its object before the owner does.
struct mesh {
  std::vector<edge> edges;
  std::vector<bale::observer<vertex>> corners;
  std::vector<std::unique_ptr<vertex>> vertices;
  std::vector<std::shared_ptr<vertex>> shared_vertices;
  bale::owning_ptr<vertex> extra;
  BALE_REFLECT(mesh, edges, corners, vertices, shared_vertices, extra)
};

mesh sample_mesh() {
  mesh m;
  for (int i = 0; i < 4; ++i) {
    m.vertices.push_back(std::make_unique<vertex>());
    m.vertices.back()->x = i;
    m.shared_vertices.push_back(std::make_shared<vertex>());
    m.shared_vertices.back()->x = 10 + i;
  }
  m.extra = new vertex{99, nullptr};
  m.shared_vertices.push_back(m.shared_vertices[1]);  // shared twice, observed too
  for (std::size_t i = 0; i < 4; ++i) {
    m.vertices[i]->next = m.vertices[(i + 1) % 4].get();
    m.shared_vertices[i]->next = m.shared_vertices[i].get();  // each observes itself
    m.edges.push_back({m.vertices[i].get(), m.shared_vertices[i].get()});
  }
  m.edges.push_back({m.extra.get(), m.extra.get()});
  m.corners = {m.vertices[3].get(), m.shared_vertices[2].get(), nullptr, m.extra.get()};
  return m;
}

TYPED_TEST(Observer, ObserversMetBeforeTheirOwnersAndCycles) {
  using Format = TypeParam;
  mesh m = sample_mesh();
  mesh back = bale::deserialize<mesh, Format>(bale::serialize<Format>(m));
  ASSERT_EQ(back.vertices.size(), 4u);
  ASSERT_EQ(back.shared_vertices.size(), 5u);
  ASSERT_EQ(back.edges.size(), 5u);
  EXPECT_EQ(back.shared_vertices[4], back.shared_vertices[1]);
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(back.vertices[i]->x, static_cast<double>(i));
    EXPECT_EQ(back.vertices[i]->next.get(), back.vertices[(i + 1) % 4].get());
    EXPECT_EQ(back.shared_vertices[i]->next.get(), back.shared_vertices[i].get());
    EXPECT_EQ(back.edges[i].from.get(), back.vertices[i].get());
    EXPECT_EQ(back.edges[i].to.get(), back.shared_vertices[i].get());
  }
  EXPECT_EQ(back.edges[4].from.get(), back.extra.get());
  EXPECT_EQ(back.edges[4].to.get(), back.extra.get());
  EXPECT_EQ(back.extra->x, 99);
  const std::vector<vertex*> corners = {back.vertices[3].get(), back.shared_vertices[2].get(),
                                        nullptr, back.extra.get()};
  ASSERT_EQ(back.corners.size(), 4u);
  for (std::size_t i = 0; i < 4; ++i) EXPECT_EQ(back.corners[i].get(), corners[i]);
  EXPECT_EQ(back.shared_vertices[0].use_count(), 1);  // the table let go of the claimed objects
  delete m.extra.get();
  delete back.extra.get();
}

// Observers through a base class, the objects owned as a derived type two levels down.
struct shape {
  virtual ~shape() = default;
  int id = 0;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(bale::field("id", id));
  }
};
struct circle : shape {
  double radius = 0;
  bale::observer<shape> neighbour;
  template <class Archive>
  void serialize(Archive& ar) {
    shape::serialize(ar);
    ar(bale::field("radius", radius), bale::field("neighbour", neighbour));
  }
};
struct ring : circle {
  double inner = 0;
  template <class Archive>
  void serialize(Archive& ar) {
    circle::serialize(ar);
    ar(bale::field("inner", inner));
  }
};
struct scene {
  std::vector<bale::observer<shape>> selection;  // observers first: they make the objects
  std::vector<std::unique_ptr<shape>> shapes;
  std::shared_ptr<ring> favourite;
  BALE_REFLECT(scene, selection, shapes, favourite)
};

TYPED_TEST(Observer, ObserversOfABaseClass) {
  using Format = TypeParam;
  // The base is concrete and listed too; the list also serves pointers to circle and ring.
  const auto shapes =
      bale::registry<shape>{}.add<shape>("shape").add<circle>("circle").add<ring>("ring");
  scene s;
  s.shapes.push_back(std::make_unique<circle>());
  s.shapes.push_back(std::make_unique<ring>());
  s.shapes.push_back(std::make_unique<shape>());
  s.favourite = std::make_shared<ring>();
  for (int i = 0; i < 3; ++i) s.shapes[static_cast<std::size_t>(i)]->id = i;
  s.favourite->id = 7;
  static_cast<circle&>(*s.shapes[0]).neighbour = s.shapes[1].get();
  static_cast<circle&>(*s.shapes[1]).neighbour = s.favourite.get();
  s.favourite->neighbour = s.shapes[0].get();
  s.selection = {s.shapes[2].get(), s.favourite.get(), s.shapes[1].get()};
  const auto bytes = bale::serialize<Format>(bale::with(s, shapes));
  scene back;
  auto into = bale::with(back, shapes);
  bale::deserialize<Format>(bytes, into);
  ASSERT_EQ(back.shapes.size(), 3u);
  auto* c = dynamic_cast<circle*>(back.shapes[0].get());
  auto* r = dynamic_cast<ring*>(back.shapes[1].get());
  ASSERT_TRUE(c && r && back.favourite);
  EXPECT_EQ(c->neighbour.get(), r);
  EXPECT_EQ(r->neighbour.get(), back.favourite.get());
  EXPECT_EQ(back.favourite->neighbour.get(), c);
  ASSERT_EQ(back.selection.size(), 3u);
  EXPECT_EQ(back.selection[0].get(), back.shapes[2].get());
  EXPECT_EQ(back.selection[1].get(), back.favourite.get());
  EXPECT_EQ(back.selection[2].get(), r);
  EXPECT_EQ(back.favourite->id, 7);
}

struct loose {
  bale::observer<vertex> seen;
  vertex owned_by_value;
  BALE_REFLECT(loose, seen, owned_by_value)
};

TYPED_TEST(Observer, AnObjectNoPointerOwnsIsAnErrorOnWriting) {
  using Format = TypeParam;
  loose l;
  l.seen = &l.owned_by_value;
  try {
    (void)bale::serialize<Format>(l);
    ADD_FAILURE() << "wrote an observer of a value member";
  } catch (const bale::error& e) {
    EXPECT_EQ(e.code(), bale::errc::invalid_value);
    EXPECT_NE(std::string(e.what()).find("observers only"), std::string::npos) << e.what();
  }
  std::vector<std::byte> buffer;
  EXPECT_THROW(bale::serialize_into<Format>(buffer, l), bale::error);
  EXPECT_TRUE(buffer.empty());
  EXPECT_THROW((void)bale::serialized_size<Format>(l), bale::error);
}

struct observed_pair {
  bale::observer<vertex> first;
  std::unique_ptr<vertex> owner;
  BALE_REFLECT(observed_pair, first, owner)
};
struct pair_without_owner {
  bale::observer<vertex> first;
  std::unique_ptr<vertex> owner;  // read as null below: nobody claims the object
  BALE_REFLECT(pair_without_owner, first, owner)
};

TYPED_TEST(Observer, AnObjectNoPointerOwnsIsAnErrorOnReading) {
  using Format = TypeParam;
  observed_pair p;
  p.owner = std::make_unique<vertex>();
  p.first = p.owner.get();
  auto bytes = bale::serialize<Format>(p);
  const auto back = bale::deserialize<observed_pair, Format>(bytes);
  EXPECT_EQ(back.first.get(), back.owner.get());
  // The same message with the owner made null: the object the observer made dangles.
  std::vector<std::byte> orphan;
  if constexpr (std::is_same_v<Format, bale::json>) {
    const std::string text = R"({"first":{"$id":0,"$objects":[{"x":0,"next":null}]},"owner":null})";
    for (char ch : text) orphan.push_back(std::byte(ch));
  } else if constexpr (std::is_same_v<Format, bale::msgpack>) {
    orphan = bytes;
    ASSERT_EQ(orphan[orphan.size() - 7], std::byte{0x81});  // the owner: a map {"$ref": 0}
    orphan.resize(orphan.size() - 7);                       // 0x81, "$ref" (5 bytes), 0
    orphan.push_back(std::byte{0xc0});                      // nil
  } else {
    orphan = bytes;  // the owner's claim: state 2, object 0 (4 bytes, or 1 as a varint)
    const std::size_t claim = std::is_same_v<Format, bale::binary> ? 5 : 2;
    ASSERT_EQ(orphan[orphan.size() - claim], std::byte{2});
    orphan.resize(orphan.size() - claim);
    orphan.push_back(std::byte{0});  // null
  }
  auto r = bale::try_deserialize<pair_without_owner, Format>(orphan);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code(), bale::errc::invalid_value);
  EXPECT_NE(std::string(r.error().what()).find("would dangle"), std::string::npos)
      << r.error().what();
}

struct weakly_held {
  bale::observer<vertex> seen;
  std::weak_ptr<vertex> weak;
  BALE_REFLECT(weakly_held, seen, weak)
};

TYPED_TEST(Observer, AnObjectOnlyWeakPointersHoldIsAnErrorOnReading) {
  using Format = TypeParam;
  const auto kept = std::make_shared<vertex>();  // the writer's owner, outside the message
  weakly_held w{kept.get(), kept};
  const auto bytes = bale::serialize<Format>(w);
  auto r = bale::try_deserialize<weakly_held, Format>(bytes);
  ASSERT_FALSE(r);
  EXPECT_NE(std::string(r.error().what()).find("would dangle"), std::string::npos)
      << r.error().what();
}

struct two_owners {
  bale::observer<vertex> seen;
  std::unique_ptr<vertex> unique;
  std::shared_ptr<vertex> shared;
  BALE_REFLECT(two_owners, seen, unique, shared)
};

TYPED_TEST(Observer, AnObservedObjectWithTwoOwnersIsAnErrorOnWriting) {
  using Format = TypeParam;
  two_owners t;
  t.unique = std::make_unique<vertex>();
  t.shared = std::shared_ptr<vertex>(t.unique.get(), [](vertex*) {});
  t.seen = t.unique.get();
  try {
    (void)bale::serialize<Format>(t);
    ADD_FAILURE() << "wrote an object with two owners";
  } catch (const bale::error& e) {
    EXPECT_NE(std::string(e.what()).find("two owners"), std::string::npos) << e.what();
  }
}

std::vector<std::byte> bytes_of(std::initializer_list<int> bs);

// Objects that own one another through unique_ptrs, observed from anywhere.
struct box {
  bale::observer<box> looks_at;
  std::unique_ptr<box> inner;
  BALE_REFLECT(box, looks_at, inner)
};

TYPED_TEST(Observer, AnOwnerInsideAnotherObjectClaimsWhatObserversMetFirst) {
  using Format = TypeParam;
  box root;  // root -> a -> b -> c, each owning the next
  root.inner = std::make_unique<box>();
  root.inner->inner = std::make_unique<box>();
  root.inner->inner->inner = std::make_unique<box>();
  root.looks_at = root.inner->inner->inner.get();  // c, met long before b's body owns it
  root.inner->looks_at = root.inner->inner.get();  // b, met in a's body before a's owner
  const box back = bale::deserialize<box, Format>(bale::serialize<Format>(root));
  ASSERT_TRUE(back.inner && back.inner->inner && back.inner->inner->inner);
  EXPECT_EQ(back.looks_at.get(), back.inner->inner->inner.get());
  EXPECT_EQ(back.inner->looks_at.get(), back.inner->inner.get());
}

TYPED_TEST(Observer, AnObjectOwningItselfIsAnErrorOnWriting) {
  using Format = TypeParam;
  auto* a = new box;  // a owns b and b owns a: memory nothing else can free
  auto* b = new box;
  a->inner.reset(b);
  b->inner.reset(a);
  const bale::observer<box> seen = a;
  try {
    (void)bale::serialize<Format>(seen);
    ADD_FAILURE() << "wrote an object that owns itself";
  } catch (const bale::error& e) {
    EXPECT_NE(std::string(e.what()).find("owns itself"), std::string::npos) << e.what();
  }
  (void)b->inner.release();
  delete a;
}

TEST(ObserverHostile, AnObjectOwningItselfIsRefused) {
  // A box whose looks_at makes box 0; at the outermost pointer box 0's body: looks_at null,
  // inner: state 2, a claim on object 0 (itself); then the root's inner: null.
  const auto itself = bytes_of({1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0});
  // The same through box 1: box 0's inner makes box 1, whose inner claims box 0.
  const auto through_another = bytes_of({1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0});
  for (const auto& bytes : {itself, through_another}) {
    auto r = bale::try_deserialize<box>(bytes);
    ASSERT_FALSE(r);
    EXPECT_NE(std::string(r.error().what()).find("would own itself"), std::string::npos)
        << r.error().what();
  }
  // Owned from outside every body instead: read.
  auto r = bale::try_deserialize<box>(bytes_of({1, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0}));
  ASSERT_TRUE(r) << r.error().what();
  EXPECT_EQ(r->looks_at.get(), r->inner.get());
}

TYPED_TEST(Observer, EveryPrefixFailsAndBitFlipsFailCleanly) {
  using Format = TypeParam;
  mesh m = sample_mesh();
  const auto bytes = bale::serialize<Format>(m);
  delete m.extra.get();
  // Read into a kept value: an owning_ptr, like the raw pointer it stands for, is the caller's
  // to delete, after a failed read too.
  const auto read = [&](const std::vector<std::byte>& input) {
    mesh back;
    const bool ok = static_cast<bool>(bale::try_deserialize<Format>(input, back));
    delete back.extra.get();
    return ok;
  };
  for (std::size_t n = 0; n < bytes.size(); ++n)
    EXPECT_FALSE(read({bytes.begin(), bytes.begin() + static_cast<long>(n)})) << "prefix " << n;
  std::size_t read_back = 0;
  for (std::size_t i = 0; i < bytes.size() * 8; i += 3) {
    auto flipped = bytes;
    flipped[i / 8] ^= std::byte(1U << (i % 8));
    if (read(flipped)) ++read_back;
  }
  EXPECT_LT(read_back, bytes.size() * 8 / 3);
}

TEST(ObserverFile, SavedAndLoadedInOnePass) {
  const auto path = std::filesystem::temp_directory_path() / "bale_observer_test.bale";
  mesh m = sample_mesh();
  bale::save_file(path, m);
  mesh back = bale::load_file<mesh>(path);
  std::filesystem::remove(path);
  ASSERT_EQ(back.edges.size(), 5u);
  EXPECT_EQ(back.edges[2].from.get(), back.vertices[2].get());
  EXPECT_EQ(back.vertices[3]->next.get(), back.vertices[0].get());
  delete m.extra.get();
  delete back.extra.get();
}

// Hand-made binary messages: observed_pair is an observer (u32 tag) then a unique_ptr (a state
// byte: 0 null, 1 new, 2 then a u32 number: a claim).
std::vector<std::byte> bytes_of(std::initializer_list<int> bs) {
  std::vector<std::byte> out;
  for (int b : bs) out.push_back(std::byte(b));
  return out;
}
std::vector<std::byte> observed_then(std::initializer_list<int> owner) {
  // observer: tag 1 (new); body: x (8 bytes), next: null (tag 0)
  std::vector<std::byte> out = bytes_of({1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0});
  const auto rest = bytes_of(owner);
  out.insert(out.end(), rest.begin(), rest.end());
  return out;
}

TEST(ObserverHostile, ClaimsAreChecked) {
  auto good = bale::try_deserialize<observed_pair>(observed_then({2, 0, 0, 0, 0}));
  ASSERT_TRUE(good);
  EXPECT_EQ(good->first.get(), good->owner.get());
  // A state byte past 2.
  auto r = bale::try_deserialize<observed_pair>(observed_then({3}));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().offset(), 16u);
  EXPECT_NE(std::string(r.error().what()).find("state"), std::string::npos);
  // A claim on an object past the table.
  EXPECT_FALSE(bale::try_deserialize<observed_pair>(observed_then({2, 1, 0, 0, 0})));
  // A unique_ptr claims an object a unique_ptr owns already.
  struct claimed_twice {
    bale::observer<vertex> first;
    std::unique_ptr<vertex> a, b;
  };
  r = bale::try_deserialize<observed_pair>(observed_then({2, 0, 0, 0, 0, 2, 0, 0, 0, 0}));
  EXPECT_FALSE(r);
  auto twice = bale::try_deserialize<claimed_twice>(observed_then({2, 0, 0, 0, 0, 2, 0, 0, 0, 0}));
  ASSERT_FALSE(twice);
  EXPECT_NE(std::string(twice.error().what()).find("another pointer owns"), std::string::npos)
      << twice.error().what();
  // A claim by a pointer of another type.
  struct claimed_as_int {
    bale::observer<vertex> first;
    std::unique_ptr<int> owner;
  };
  auto other = bale::try_deserialize<claimed_as_int>(observed_then({2, 0, 0, 0, 0}));
  ASSERT_FALSE(other);
  EXPECT_EQ(other.error().code(), bale::errc::wrong_type);
  // An observer refers to an object that does not exist.
  struct observer_only {
    bale::observer<vertex> first;
  };
  EXPECT_FALSE(bale::try_deserialize<observer_only>(bytes_of({5, 0, 0, 0})));
}

// A doubly linked list: unique_ptr forward, observer back, on a small stack.
struct list_node {
  std::uint32_t value = 0;
  bale::observer<list_node> prev;
  std::unique_ptr<list_node> next;
  BALE_REFLECT(list_node, value, prev, next)
};

void* run_long_list(void* out) {
  constexpr std::uint32_t n = 1'000'000;
  auto head = std::make_unique<list_node>();
  list_node* tail = head.get();
  for (std::uint32_t i = 1; i < n; ++i) {
    tail->next = std::make_unique<list_node>();
    tail->next->value = i;
    tail->next->prev = tail;
    tail = tail->next.get();
  }
  auto back = bale::deserialize<std::unique_ptr<list_node>>(bale::serialize(head));
  std::uint32_t good = 0;
  list_node* before = nullptr;
  for (list_node* at = back.get(); at != nullptr; before = at, at = at->next.get())
    good += at->value == good && at->prev.get() == before ? 1 : 0;
  *static_cast<std::uint32_t*>(out) = good;
  for (auto* list : {&head, &back})  // freed in a loop: the destructors would recurse
    while (*list) *list = std::move((*list)->next);
  return nullptr;
}

TEST(ObserverStack, MillionNodeDoublyLinkedListOnA256KiBStack) {
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, 256 * 1024);
  std::uint32_t good = 0;
  pthread_t thread;
  ASSERT_EQ(pthread_create(&thread, &attr, run_long_list, &good), 0);
  pthread_join(thread, nullptr);
  pthread_attr_destroy(&attr);
  EXPECT_EQ(good, 1'000'000u);
}

}  // namespace
