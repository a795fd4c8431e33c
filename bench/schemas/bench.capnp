# SPDX-License-Identifier: BSL-1.0
# The benchmark cases as Cap'n Proto structs.
@0xd1e7a5b3c2f40911;
using Cxx = import "/capnp/c++.capnp";
$Cxx.namespace("bench::cp");

struct DoubleArray { values @0 :List(Float64); }
struct SeedElement {
  v0 @0 :Float32;
  v1 @1 :Float32;
  v2 @2 :Float32;
  v3 @3 :Float32;
  i @4 :Int32;
  f @5 :Float32;
}
struct SeedElements { elements @0 :List(SeedElement); }
struct TupleMessage {
  a @0 :Int32;
  b @1 :UInt64;
  c @2 :Data;
  d @3 :Text;
}
struct SparseRow {
  columns @0 :List(Int64);
  values @1 :List(Float64);
}
struct SparseMatrix { rows @0 :List(SparseRow); }
struct HashEntry {
  key @0 :Text;
  value @1 :Float64;
}
struct HashMap { entries @0 :List(HashEntry); }
# Case 13: the monsters.
struct Point3 {
  x @0 :Float32;
  y @1 :Float32;
  z @2 :Float32;
}
struct Weapon {
  name @0 :Text;
  damage @1 :Int16;
}
struct Monster {
  position @0 :Point3;
  mana @1 :Int16;
  hp @2 :Int16;
  name @3 :Text;
  inventory @4 :Data;
  colour @5 :UInt8;
  weapons @6 :List(Weapon);
  equipped @7 :Weapon;
  path @8 :List(Point3);
}
struct Monsters { monsters @0 :List(Monster); }
