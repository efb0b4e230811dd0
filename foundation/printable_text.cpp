#include "foundation/printable_text.hpp"

#include <array>
#include <cstdio>

namespace simapp {

std::string printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  const auto append_escape = [&out](const char* format, unsigned value) {
    std::array<char, 8> escape{};
    std::snprintf(escape.data(), escape.size(), format, value);
    out += escape.data();
  };
  for (std::size_t n = 0; n < text.size(); ++n) {
    const auto byte = static_cast<unsigned char>(text[n]);
    const auto next = n + 1 < text.size() ? static_cast<unsigned char>(text[n + 1]) : 0u;
    if (byte == '\n') {
      out += "\\n";
    } else if (byte == '\t') {
      out += "\\t";
    } else if (byte == '\r') {
      out += "\\r";
    } else if (byte < 0x20 || byte == 0x7f) {
      append_escape("\\x%02x", byte);
    } else if (byte == 0xc2 && next >= 0x80 && next <= 0x9f) {  // U+0080 to U+009F in UTF-8
      append_escape("\\u%04x", next);
      ++n;
    } else {
      out += text[n];
    }
  }
  return out;
}

}  // namespace simapp
