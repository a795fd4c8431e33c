// SPDX-License-Identifier: BSL-1.0
// A configuration file in JSON: optional members, enums by name, members the program does not
// know yet, and errors that say where the text is wrong.
#include <bale/bale.hpp>
#include <bale/json/format.hpp>
#include <bale/types/chrono.hpp>

#include <chrono>
#include <cstdio>
#include <map>
#include <optional>
#include <string>
#include <vector>

enum class log_level { quiet, info, debug };
BALE_ENUM_NAMES(log_level, quiet, info, debug)

struct server_config {
  std::string host = "localhost";
  std::uint16_t port = 8080;
  log_level logging = log_level::info;
  std::optional<std::string> tls_certificate;  // absent in the text: empty
  std::vector<std::string> allowed_origins;
  std::map<std::string, double> rate_limits;
  std::chrono::milliseconds timeout{500};  // a count of milliseconds
};

int main() {
  const std::string text = R"({
    "host": "example.org",
    "port": 443,
    "logging": "debug",
    "allowed_origins": ["https://example.org"],
    "rate_limits": {"login": 5, "search": 20.5},
    "timeout": 1500,
    "added_in_a_later_release": true
  })";

  bale::json_options options;
  options.skip_unknown_members = true;  // a newer file read by an older program
  const auto config = bale::from_json<server_config>(text, options);
  if (config.port != 443 || config.logging != log_level::debug || config.tls_certificate) return 1;

  // Members that are missing keep their defaults when asked to.
  options.allow_missing_members = true;
  const auto partial = bale::from_json<server_config>(R"({"port": 9000})", options);
  if (partial.host != "localhost" || partial.timeout.count() != 500) return 1;

  options.pretty = true;
  std::printf("%s\n", bale::to_json(config, options).c_str());

  // A mistake in the text: the error names the member and the byte.
  const auto wrong = bale::try_from_json<server_config>(R"({"host": "a", "port": 70000})", options);
  if (wrong) return 1;
  std::printf("%s\n", wrong.error().what());
  return 0;
}
