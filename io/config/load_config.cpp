#include "io/config/load_config.hpp"

#include "io/config/input_sounding.hpp"

#include <fmt/format.h>
#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <filesystem>
#include <iterator>
#include <limits>
#include <map>
#include <optional>
#include <regex>
#include <sstream>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>

#include "foundation/error.hpp"
#include "io/config/config_schema.hpp"
#include "io/config/config_text.hpp"
#include "io/config/model_keys.hpp"
#include "io/config/run_limits.hpp"
#include "io/hdf5/cf_time.hpp"
#include "kernels/cases/case_list.hpp"

namespace simapp::io {
namespace {

/// A value given for a key by the file or by --set, with the place to report it at.
struct Setting {
  const ConfigKey* key;
  YAML::Node value;
  std::string where;
};

Error bad_input(std::string where, const std::string& what) {
  return Error{ExitCode::bad_input, std::move(where), what};
}

std::string at_line(const std::string& file, const YAML::Mark& mark) {
  return mark.line < 0 ? file : fmt::format("{}:{}", file, mark.line + 1);
}

std::string join(const std::vector<std::string_view>& names) {
  std::string text;
  for (const std::string_view name : names) text += (text.empty() ? "" : ", ") + std::string(name);
  return text;
}

/// `text` as a message shows it: its first 60 bytes (cut at a character boundary) and "..."
/// when it is longer, so that no input makes a message long.
std::string shortened(std::string_view text) {
  constexpr std::size_t shown = 60;
  if (text.size() <= shown) return std::string(text);
  std::size_t cut = shown;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;  // a UTF-8 continuation byte
  return std::string(text.substr(0, cut)) + "...";
}

std::string in_quotes(std::string_view text) { return "'" + shortened(text) + "'"; }

std::string describe(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Scalar: return in_quotes(node.Scalar());
    case YAML::NodeType::Sequence: return "a list";
    case YAML::NodeType::Map: return "a map";
    default: return "nothing";
  }
}

/// Whether a key's values may also be written as a clock time, [D-]H:MM:SS: numbers of seconds.
bool takes_clock_time(const ConfigKey& key) { return key.type == ValueType::real && key.unit == "s"; }

std::string_view type_name(const ConfigKey& key) {
  if (takes_clock_time(key)) return "a number of seconds or H:MM:SS";
  switch (key.type) {
    case ValueType::integer: return "an integer";
    case ValueType::real: return "a number";
    case ValueType::string: return "a string";
    case ValueType::date_time: return "a date and time";
    case ValueType::enumeration: return "a name";
    case ValueType::integer_list: return "two or three integers";
    case ValueType::real_list: return "two or three numbers";
    case ValueType::name_list: return "names";
  }
  return "a value";
}

/// Optimal string alignment distance, ignoring case: insertions, deletions, substitutions and
/// swaps of neighbours each count one edit.
std::size_t edit_distance(std::string_view a, std::string_view b) {
  const auto same = [](char x, char y) {
    return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
  };
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t substitution = same(a[i - 1], b[j - 1]) ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + substitution});
      if (i > 1 && j > 1 && same(a[i - 1], b[j - 2]) && same(a[i - 2], b[j - 1]))
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.size()][b.size()];
}

std::string_view last_name(std::string_view path) {
  const auto dot = path.rfind('.');
  return dot == std::string_view::npos ? path : path.substr(dot + 1);
}

/// The candidate nearest to `text` when it is within about a third of its length in edits
/// (at most 3); nullopt when none is that close.
std::optional<std::string_view> nearest(std::string_view text, const std::vector<std::string_view>& candidates) {
  std::optional<std::string_view> best;
  std::size_t best_distance = 0;
  for (const std::string_view candidate : candidates) {
    // At least the difference in length, and more than 3 is never close: skip the work.
    if (std::max(text.size(), candidate.size()) - std::min(text.size(), candidate.size()) > 3) continue;
    const std::size_t distance = edit_distance(text, candidate);
    if (!best || distance < best_distance) {
      best = candidate;
      best_distance = distance;
    }
  }
  if (!best) return std::nullopt;
  const std::size_t close = std::clamp<std::size_t>(std::max(text.size(), best->size()) / 3, 1, 3);
  return best_distance <= close ? best : std::nullopt;
}

std::string suggestion(std::optional<std::string_view> candidate, std::string_view separator) {
  return candidate ? fmt::format("did you mean '{}'?{}", *candidate, separator) : "";
}

/// Names of the sections ("grid", ...): the proper prefixes of the key paths.
const std::vector<std::string_view>& section_names() {
  static const std::vector<std::string_view> sections = [] {
    std::vector<std::string_view> names;
    for (const ConfigKey& key : config_keys()) {
      for (auto dot = key.path.find('.'); dot != std::string_view::npos; dot = key.path.find('.', dot + 1))
        if (std::ranges::find(names, key.path.substr(0, dot)) == names.end()) names.push_back(key.path.substr(0, dot));
    }
    return names;
  }();
  return sections;
}

bool is_section(std::string_view path) { return std::ranges::find(section_names(), path) != section_names().end(); }

/// The key or section `path` was most likely meant to be: a key with the same last name (one
/// put in the wrong section), else the nearest name at the same depth.
std::optional<std::string_view> likely_key(std::string_view path) {
  for (const ConfigKey& key : config_keys())
    if (last_name(key.path) == last_name(path)) return key.path;
  const auto depth = std::ranges::count(path, '.');
  std::vector<std::string_view> names;
  for (const std::string_view section : section_names())
    if (std::ranges::count(section, '.') == depth) names.push_back(section);
  for (const ConfigKey& key : config_keys())
    if (std::ranges::count(key.path, '.') == depth) names.push_back(key.path);
  return nearest(path, names);
}

Error unknown_key(const std::string& path, std::string where) {
  if (is_section(path)) {
    std::vector<std::string_view> keys;
    for (const ConfigKey& key : config_keys())
      if (key.path.starts_with(path + ".")) keys.push_back(key.path);
    return bad_input(std::move(where), fmt::format("{}: a section, not a key (keys: {})", path, join(keys)));
  }
  const auto guess = likely_key(path);
  return bad_input(std::move(where),
                   fmt::format("{}: unknown key{}", shortened(path), guess ? " (" + suggestion(guess, "") + ")" : ""));
}

/// Adds a setting for every key of `map` (the section `prefix`, or the root when empty),
/// rejecting unknown keys and sections that are not maps. `first_lines` holds the line of
/// every key path met so far, so that a key given twice is an error also when written once
/// dotted (`grid.nx: 50`) and once nested (`grid: {nx: 40}`).
void collect_section(const YAML::Node& map, const std::string& prefix, const std::string& file,
                     std::vector<Setting>& settings, std::map<std::string, int>& first_lines) {
  for (const auto& entry : map) {
    const YAML::Node& name = entry.first;
    const YAML::Node& value = entry.second;
    const std::string where = at_line(file, name.Mark());
    if (!name.IsScalar())
      throw bad_input(where, fmt::format("{}: expected a key name, got {}", prefix.empty() ? "configuration" : prefix,
                                         describe(name)));
    const std::string path = prefix.empty() ? name.Scalar() : prefix + "." + name.Scalar();
    if (const auto [first, inserted] = first_lines.emplace(path, name.Mark().line + 1); !inserted)
      throw bad_input(where, fmt::format("{}: duplicate key (first at line {})", path, first->second));
    if (const ConfigKey* key = find_config_key(path)) {
      settings.push_back({key, value, value.IsNull() ? where : at_line(file, value.Mark())});
    } else if (!is_section(path)) {
      throw unknown_key(path, where);
    } else if (value.IsMap()) {
      collect_section(value, path, file, settings, first_lines);
    } else if (!value.IsNull()) {
      throw bad_input(at_line(file, value.Mark()),
                      fmt::format("{}: expected a map of keys, got {}", path, describe(value)));
    }
  }
}

std::string trim(std::string_view text) {
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  return std::string(text.substr(first, text.find_last_not_of(" \t") - first + 1));
}

void collect_override(const std::string& text, std::vector<Setting>& settings) {
  const std::string where = "--set " + text;
  const auto equals = text.find('=');
  if (equals == std::string::npos) throw bad_input(where, fmt::format("expected key=value, got '{}'", text));
  const std::string path = trim(std::string_view(text).substr(0, equals));
  const ConfigKey* key = find_config_key(path);
  if (key == nullptr) throw unknown_key(path, where);
  settings.push_back({key, YAML::Node(trim(std::string_view(text).substr(equals + 1))), where});
}

template <class T>
std::optional<T> parse_number(const std::string& text) {
  T value{};
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value);
  if (error != std::errc{} || stop != end) return std::nullopt;
  return value;
}

/// A decimal integer of any size: beyond the range of long long it reads as the nearest end
/// of that range, so that the range check names the limit instead of calling it no integer.
std::optional<long long> parse_integer(const std::string& text) {
  long long value = 0;
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value);
  if (stop != end || (error != std::errc{} && error != std::errc::result_out_of_range)) return std::nullopt;
  if (error == std::errc::result_out_of_range)
    return text.starts_with('-') ? std::numeric_limits<long long>::min() : std::numeric_limits<long long>::max();
  return value;
}

/// Seconds written as a clock time: H:MM:SS or D-HH:MM:SS (as Slurm writes a time limit), with
/// minutes and seconds of two digits below 60; nullopt for any other text.
std::optional<double> parse_clock_time(const std::string& text) {
  static const std::regex clock(R"((?:(\d+)-)?(\d+):([0-5]\d):([0-5]\d))");
  std::smatch parts;
  if (!std::regex_match(text, parts, clock)) return std::nullopt;
  const auto number = [&](int part) { return parts[part].matched ? std::stod(parts[part].str()) : 0.0; };
  return ((number(1) * 24 + number(2)) * 60 + number(3)) * 60 + number(4);
}

/// The items of an integer_list or real_list, each checked by `check_item`: a YAML list of two
/// or three, or override text "a,b" / "[a, b]" (and of three).
template <class Item, class Fail, class WrongType, class CheckItem>
std::vector<Item> checked_list(const Setting& setting, const Fail& fail, const WrongType& wrong_type,
                               const CheckItem& check_item) {
  std::vector<std::string> items;
  if (setting.value.IsSequence()) {
    for (const auto& item : setting.value) {
      if (!item.IsScalar()) throw wrong_type();
      items.push_back(item.Scalar());
    }
  } else if (setting.value.IsScalar()) {
    std::string text = setting.value.Scalar();
    std::erase_if(text, [](char c) { return c == '[' || c == ']' || c == ' '; });
    for (std::size_t start = 0;;) {
      const std::size_t comma = text.find(',', start);
      items.push_back(text.substr(start, comma - start));
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
  } else {
    throw wrong_type();
  }
  if (items.size() != 2 && items.size() != 3)
    throw fail(fmt::format("expected {}, got {} item(s)", type_name(*setting.key), items.size()));
  std::vector<Item> list;
  for (const std::string& item : items) list.push_back(check_item(item));
  return list;
}

/// +∞ or −∞ written as YAML writes it (.inf, +.inf, -.inf, .Inf, .INF); nullopt for other text.
std::optional<double> parse_yaml_infinity(std::string_view text) {
  double sign = 1.0;
  if (!text.empty() && (text.front() == '+' || text.front() == '-')) {
    sign = text.front() == '-' ? -1.0 : 1.0;
    text.remove_prefix(1);
  }
  if (text == ".inf" || text == ".Inf" || text == ".INF") return sign * std::numeric_limits<double>::infinity();
  return std::nullopt;
}

/// The names of a name_list: `text` split at commas, spaces around each removed; "all" for
/// every allowed name. A key without allowed names takes any (checked where they are used), and
/// none: its default, as --print-config writes it.
template <class Fail>
NameList checked_names(const std::string& text, const ConfigKey& key, const Fail& fail) {
  NameList names;
  const bool any_name = key.allowed.empty();
  if (trim(text).empty()) {
    if (any_name) return names;
    throw fail("must not be empty");
  }
  if (!any_name && trim(text) == "all") {
    for (const std::string_view name : key.allowed) names.emplace_back(name);
    return names;
  }
  std::vector<std::string_view> valid = key.allowed;
  valid.push_back("all");
  std::istringstream items(text);
  for (std::string item; std::getline(items, item, ',');) {
    const std::string name = trim(item);
    if (name.empty()) throw fail(fmt::format("empty name in {}", in_quotes(text)));
    if (!any_name && name == "all") throw fail("'all' cannot be combined with other names");
    if (!any_name && std::ranges::find(key.allowed, name) == key.allowed.end())
      throw fail(fmt::format("unknown name {} ({}valid: {})", in_quotes(name), suggestion(nearest(name, valid), "; "),
                             join(valid)));
    if (std::ranges::find(names, name) != names.end()) throw fail(fmt::format("{} is listed twice", in_quotes(name)));
    names.push_back(name);
  }
  if (trim(text).ends_with(',')) throw fail(fmt::format("empty name in {}", in_quotes(text)));
  return names;
}

/// The names of a name_list written as a YAML list, [u, w]: one name an item, checked as the
/// comma-separated text of them is.
template <class Fail>
NameList checked_name_sequence(const Setting& setting, const ConfigKey& key, const Fail& fail) {
  std::vector<std::string> items;
  for (const auto& item : setting.value) {
    if (!item.IsScalar()) throw fail(fmt::format("expected names, got a list holding {}", describe(item)));
    if (item.Scalar().find(',') != std::string::npos)
      throw fail(fmt::format("one name an item of the list, got {}", in_quotes(item.Scalar())));
    items.push_back(item.Scalar());
  }
  if (items.empty() && !key.allowed.empty()) throw fail("must not be empty");
  return checked_names(fmt::format("{}", fmt::join(items, ",")), key, fail);
}

/// The value of a setting, checked against its key's type and range.
ConfigValue checked_value(const Setting& setting) {
  const ConfigKey& key = *setting.key;
  const auto fail = [&](const std::string& problem) {
    return bad_input(setting.where, fmt::format("{}: {}", key.path, problem));
  };
  const auto wrong_type = [&] {
    return fail(fmt::format("expected {}, got {}", type_name(key), describe(setting.value)));
  };
  const auto check_range = [&](double value, const std::string& text, std::optional<double> maximum) {
    if (key.minimum) {
      const bool inclusive = key.minimum->bound == Bound::inclusive;
      if (inclusive ? value < key.minimum->value : value <= key.minimum->value)
        throw fail(fmt::format("must be {} {}, got {}", inclusive ? ">=" : ">", key.minimum->value, shortened(text)));
    }
    if (maximum && value > *maximum) throw fail(fmt::format("must be <= {}, got {}", *maximum, shortened(text)));
  };
  // An integer key's values are ints: the key's own range, then that of int.
  const auto check_integer = [&](const std::string& text) {
    const auto number = parse_integer(text);
    if (!number) throw wrong_type();
    constexpr double int_max = std::numeric_limits<int>::max();
    check_range(static_cast<double>(*number), text, std::min(key.maximum.value_or(int_max), int_max));
    if (*number < std::numeric_limits<int>::min())
      throw fail(fmt::format("must be >= {}, got {}", std::numeric_limits<int>::min(), shortened(text)));
    return static_cast<int>(*number);
  };
  // A real key's values: finite numbers (or seconds as a clock time), and ±∞ where the key
  // takes infinity; then its range.
  const auto check_real = [&](const std::string& text) {
    auto number = parse_number<double>(text);
    if (!number && takes_clock_time(key)) number = parse_clock_time(text);
    if (!number && key.infinity == Infinity::allowed) number = parse_yaml_infinity(text);
    if (!number || std::isnan(*number) || (std::isinf(*number) && key.infinity != Infinity::allowed))
      throw wrong_type();
    check_range(*number, text, key.maximum);
    return *number;
  };
  if (key.type == ValueType::integer_list) return checked_list<int>(setting, fail, wrong_type, check_integer);
  if (key.type == ValueType::real_list) return checked_list<double>(setting, fail, wrong_type, check_real);
  if (key.type == ValueType::name_list && setting.value.IsSequence()) return checked_name_sequence(setting, key, fail);
  if (!setting.value.IsScalar()) throw wrong_type();
  const std::string& text = setting.value.Scalar();
  switch (key.type) {
    case ValueType::integer: return check_integer(text);
    case ValueType::real: return check_real(text);
    case ValueType::string:
      if (text.empty()) throw fail("must not be empty");
      return text;
    case ValueType::date_time: {
      const auto time = parse_utc_time(text);
      if (const std::string* problem = std::get_if<std::string>(&time))
        throw fail(fmt::format("{}: {} (e.g. 2000-01-01T00:00:00Z)", in_quotes(text), *problem));
      return text;
    }
    case ValueType::enumeration:
      if (std::ranges::find(key.allowed, text) != key.allowed.end()) return text;
      throw fail(fmt::format("unknown value {} ({}valid: {})", in_quotes(text),
                             suggestion(nearest(text, key.allowed), "; "), join(key.allowed)));
    case ValueType::name_list: {
      // Override text may be written as the YAML list is: [u, w].
      const std::string names = trim(text);
      const bool bracketed = names.size() >= 2 && names.front() == '[' && names.back() == ']';
      return checked_names(bracketed ? names.substr(1, names.size() - 2) : text, key, fail);
    }
    case ValueType::integer_list:
    case ValueType::real_list: break;
  }
  throw wrong_type();
}

/// Where each document of a YAML stream starts and where its root node is, from the
/// parser's events (no nodes are built).
class DocumentMarks : public YAML::EventHandler {
 public:
  struct Document {
    YAML::Mark start;  ///< the document's first token
    YAML::Mark root;   ///< its root node
  };

  const std::vector<Document>& documents() const { return documents_; }

  void OnDocumentStart(const YAML::Mark& mark) override {
    documents_.push_back({mark, mark});
    root_seen_ = false;
  }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& mark, YAML::anchor_t) override { node_at(mark); }
  void OnAlias(const YAML::Mark& mark, YAML::anchor_t) override { node_at(mark); }
  void OnScalar(const YAML::Mark& mark, const std::string&, YAML::anchor_t, const std::string&) override {
    node_at(mark);
  }
  void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    node_at(mark);
  }
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    node_at(mark);
  }
  void OnMapEnd() override {}

 private:
  /// The first node of a document is its root.
  void node_at(const YAML::Mark& mark) {
    if (root_seen_) return;
    documents_.back().root = mark;
    root_seen_ = true;
  }

  std::vector<Document> documents_;
  bool root_seen_ = false;
};

/// The documents of `text`. yaml-cpp 0.7 can report a document without consuming any input
/// (a ',' where a node should start): YAML::LoadAll then adds empty documents until memory
/// runs out (jbeder/yaml-cpp#1040). A document that starts where the one before started is
/// that case, refused here as invalid YAML.
std::vector<DocumentMarks::Document> scan_documents(const std::string& path, const std::string& text) {
  std::istringstream input(text);
  YAML::Parser parser(input);
  DocumentMarks marks;
  while (parser.HandleNextDocument(marks)) {
    const auto& documents = marks.documents();
    const YAML::Mark& start = documents.back().start;
    if (documents.size() > 1 && documents[documents.size() - 2].start.pos == start.pos)
      throw bad_input(at_line(path, start),
                      fmt::format("invalid YAML: unexpected {}",
                                  start.pos >= 0 && static_cast<std::size_t>(start.pos) < text.size()
                                      ? in_quotes(text.substr(static_cast<std::size_t>(start.pos), 1))
                                      : std::string("end")));
  }
  return marks.documents();
}

/// Refuses a control character other than tab and line breaks, which YAML text never holds
/// literally (a NUL byte, say: yaml-cpp would report it a line later as another problem),
/// naming its line and column.
void require_text(const std::string& path, const std::string& text) {
  const auto control = std::ranges::find_if(text, [](char c) {
    const auto byte = static_cast<unsigned char>(c);
    return (byte < 0x20 && c != '\t' && c != '\n' && c != '\r') || byte == 0x7f;
  });
  if (control == text.end()) return;
  const auto line_start = std::find(std::make_reverse_iterator(control), text.rend(), '\n').base();
  const auto line = std::count(text.begin(), control, '\n') + 1;
  throw bad_input(
      fmt::format("{}:{}", path, line),
      fmt::format("invalid YAML: {} at column {}; YAML text holds no control characters but tabs and line "
                  "breaks",
                  *control == '\0' ? std::string("a NUL byte")
                                   : fmt::format("control character \\x{:02x}", static_cast<unsigned char>(*control)),
                  control - line_start + 1));
}

/// The one document of `text`, a map.
YAML::Node parse_config(const std::string& path, const std::string& text) {
  require_text(path, text);
  std::vector<DocumentMarks::Document> documents;
  YAML::Node root;
  try {
    documents = scan_documents(path, text);
    if (!documents.empty()) root = YAML::Load(text);  // the first document
  } catch (const YAML::DeepRecursion& error) {
    // yaml-cpp calls it "bad file".
    throw bad_input(
        at_line(path, error.mark),
        fmt::format("invalid YAML: lists and maps nested too deep (the parser stops at depth {})", error.depth()));
  } catch (const YAML::Exception& error) {
    throw bad_input(at_line(path, error.mark), "invalid YAML: " + error.msg);
  }
  if (documents.empty() || root.IsNull())
    throw bad_input(path, "configuration is empty; expected a map of keys such as 'grid:'");
  if (documents.size() > 1)
    throw bad_input(at_line(path, documents[1].root),
                    fmt::format("expected one YAML document, got {}", documents.size()));
  if (!root.IsMap())
    throw bad_input(at_line(path, root.Mark()),
                    fmt::format("expected a map of keys at the top level, got {}", describe(root)));
  return root;
}

/// Doubles go through fmt because yaml-cpp 0.7 writes 17 digits (0.1 as 0.10000000000000001);
/// fmt writes the shortest text that reads back to the same double, and ±∞ as YAML's ±.inf.
std::string yaml_number(double value) {
  if (std::isinf(value)) return value > 0 ? ".inf" : "-.inf";
  return fmt::format("{}", value);
}

YAML::Node yaml_value(const ConfigValue& value) {
  return std::visit(
      [](const auto& plain) {
        using T = std::remove_cvref_t<decltype(plain)>;
        if constexpr (std::is_same_v<T, double>) {
          return YAML::Node(yaml_number(plain));
        } else if constexpr (std::is_same_v<T, NameList>) {
          std::string text;
          for (const std::string& name : plain) text += (text.empty() ? "" : ",") + name;
          return YAML::Node(text);
        } else if constexpr (std::is_same_v<T, IntegerList> || std::is_same_v<T, RealList>) {
          YAML::Node list(YAML::NodeType::Sequence);
          for (const auto item : plain) {
            if constexpr (std::is_same_v<T, RealList>)
              list.push_back(yaml_number(item));
            else
              list.push_back(item);
          }
          list.SetStyle(YAML::EmitterStyle::Flow);
          return list;
        } else {
          return YAML::Node(plain);
        }
      },
      value);
}

/// Stores `value` at the dotted `path` below `map`, creating the sections on the way.
void insert(YAML::Node map, std::string_view path, const YAML::Node& value) {
  const auto dot = path.find('.');
  if (dot == std::string_view::npos) {
    map[std::string(path)] = value;
    return;
  }
  insert(map[std::string(path.substr(0, dot))], path.substr(dot + 1), value);
}

/// The keys of config_keys() that `include` picks, with their values in `spec`, as YAML.
template <class Include>
std::string keys_yaml(const RunSpec& spec, Include include) {
  YAML::Node root(YAML::NodeType::Map);
  for (const ConfigKey& key : config_keys())
    if (include(key)) insert(root, key.path, yaml_value(key.get(spec)));
  YAML::Emitter out;
  out << root;
  return std::string(out.c_str()) + "\n";
}

std::string resolved_yaml(const RunSpec& spec) {
  return keys_yaml(spec, [&](const ConfigKey& key) { return is_listed(key, spec); });
}

/// The tracers the settings configure (physics.tracers' last setting; checked).
NameList configured_tracers(const std::vector<Setting>& settings) {
  NameList tracers;
  for (const Setting& setting : settings)
    if (setting.key->path == "physics.tracers") tracers = std::get<NameList>(checked_value(setting));
  return tracers;
}

/// `key` allowing `names` too, after its own (their views are into `names`).
ConfigKey with_names(const ConfigKey& key, const NameList& names) {
  ConfigKey extended = key;
  extended.allowed.insert(extended.allowed.end(), names.begin(), names.end());
  return extended;
}

/// background.sounding's file, read into the spec: a path given in the file is relative to the
/// file's directory, one given with --set to the working directory.
void read_background_sounding(RunSpec& spec, const KeyPlaces& places, const std::string& path) {
  if (spec.background.sounding_file.empty()) return;
  std::filesystem::path file = spec.background.sounding_file;
  const auto place = places.find("background.sounding");
  const bool from_command_line = place != places.end() && place->second.starts_with("--set");
  if (file.is_relative() && !from_command_line) file = std::filesystem::path(path).parent_path() / file;
  spec.background.sounding = read_input_sounding(file);
}

}  // namespace

std::string every_key_yaml(const RunSpec& spec) {
  return keys_yaml(spec, [&](const ConfigKey& key) {
    if (key.path == "background.sounding") return !spec.background.sounding_file.empty();
    return has_bump(spec.case_name) || !key.path.starts_with("perturbation.");
  });
}

LoadedConfig load_config(const std::string& path, const std::vector<std::string>& overrides) {
  return load_config_text(path, read_config_text(path), overrides);
}

LoadedConfig load_config_text(const std::string& path, const std::string& text,
                              const std::vector<std::string>& overrides) {
  std::vector<Setting> settings;
  std::map<std::string, int> first_lines;
  collect_section(parse_config(path, text), "", path, settings, first_lines);
  for (const std::string& override_text : overrides) collect_override(override_text, settings);

  // Every setting is checked, also one that a later one replaces: a broken file is reported
  // even when --set covers it. output.variables may name the tracers.
  const NameList tracers = configured_tracers(settings);
  const ConfigKey variables = with_names(*find_config_key("output.variables"), tracers);
  RunSpec spec;
  KeyPlaces places;
  for (const Setting& setting : settings) {
    const Setting checked =
        setting.key->path == variables.path ? Setting{&variables, setting.value, setting.where} : setting;
    setting.key->set(spec, checked_value(checked));
    places[setting.key->path] = setting.where;
  }
  resolve_defaults(spec, places);
  read_background_sounding(spec, places, path);
  check_model_keys(spec, places, path);
  check_run_limits(spec, places, path);
  return {spec, path, resolved_yaml(spec)};
}

}  // namespace simapp::io
