#include "io/config/input_sounding.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <fstream>
#include <optional>
#include <string>
#include <system_error>
#include <utility>

#include <fmt/core.h>

#include "foundation/error.hpp"
#include "foundation/printable_text.hpp"

namespace simapp::io {
namespace {

namespace fs = std::filesystem;

constexpr double pascals_per_hectopascal = 100.0;
constexpr double grams_per_kilogram = 1000.0;

/// The file's name as messages print it.
std::string name_of(const fs::path& file) { return printable(file.string()); }

/// A bad-input Error at line `line` of `file`.
Error bad_line(const fs::path& file, int line, const std::string& what) {
  return Error(ExitCode::bad_input, fmt::format("{}:{}", name_of(file), line), what);
}

/// `word` as a number: a decimal number as C++ and Fortran write it (an optional sign, digits
/// with a point, an exponent after E or e); nothing for anything else and for infinity or NaN.
std::optional<double> number_in(std::string_view word) {
  if (word.size() > 1 && word.front() == '+' && word[1] != '-' && word[1] != '+') word.remove_prefix(1);
  double value = 0.0;
  const auto [end, error] = std::from_chars(word.data(), word.data() + word.size(), value);
  if (error != std::errc() || end != word.data() + word.size() || !std::isfinite(value)) return std::nullopt;
  return value;
}

/// The numbers on line `line`, `text`, of `file`, separated by white space; throws at the first
/// word that is not a finite number.
std::vector<double> numbers_on(std::string_view text, const fs::path& file, int line) {
  constexpr std::string_view blanks = " \t\r\v\f";
  std::vector<double> numbers;
  for (std::size_t start = text.find_first_not_of(blanks); start != std::string_view::npos;) {
    const std::size_t end = std::min(text.find_first_of(blanks, start), text.size());
    const std::string_view word = text.substr(start, end - start);
    const std::optional<double> number = number_in(word);
    if (!number) throw bad_line(file, line, fmt::format("'{}' is not a finite number", printable(word)));
    numbers.push_back(*number);
    start = text.find_first_not_of(blanks, end);
  }
  return numbers;
}

/// Reads a sounding a line at a time, checking each as it comes.
class SoundingReader {
 public:
  explicit SoundingReader(fs::path file) : file_(std::move(file)) {}

  /// The file's next line (without its end of line).
  void add(std::string_view text) {
    ++line_;
    const std::vector<double> numbers = numbers_on(text, file_, line_);
    if (numbers.empty()) return;  // a blank line
    if (surface_line_ == 0)
      add_surface(numbers);
    else
      add_level(numbers);
  }

  /// The sounding read; throws when it has no surface line or no level.
  InputSounding finish() && {
    if (surface_line_ == 0)
      throw Error(ExitCode::bad_input, name_of(file_),
                  "no sounding: its first line holds the surface pressure (hPa), θ (K) and q_v (g/kg)");
    if (sounding_.levels.empty())
      throw bad_line(file_, surface_line_,
                     "the surface line is the sounding's last: a level follows it on each line, height (m), θ (K), "
                     "q_v (g/kg), u and v (m/s)");
    return std::move(sounding_);
  }

 private:
  /// surface pressure (hPa), θ (K), q_v (g/kg).
  void add_surface(const std::vector<double>& numbers) {
    if (numbers.size() != 3)
      throw bad_line(file_, line_,
                     fmt::format("the surface line holds 3 numbers, the surface pressure (hPa), θ (K) and q_v (g/kg); "
                                 "this one holds {}",
                                 numbers.size()));
    const double pressure = numbers[0], theta = numbers[1], vapour = numbers[2];
    if (!(pressure > 0.0)) throw bad_line(file_, line_, fmt::format("surface pressure {} hPa: must be > 0", pressure));
    check_theta_and_vapour(theta, vapour);
    sounding_.surface_pressure = pressure * pascals_per_hectopascal;
    sounding_.surface_theta = theta;
    sounding_.surface_vapour = vapour / grams_per_kilogram;
    surface_line_ = line_;
  }

  /// height (m), θ (K), q_v (g/kg), u, v (m/s).
  void add_level(const std::vector<double>& numbers) {
    if (numbers.size() != 5)
      throw bad_line(file_, line_,
                     fmt::format("a level holds 5 numbers, height (m), θ (K), q_v (g/kg), u and v (m/s); this line "
                                 "holds {}",
                                 numbers.size()));
    const double height = numbers[0], theta = numbers[1], vapour = numbers[2];
    if (!sounding_.levels.empty() && !(height > sounding_.levels.back().height))
      throw bad_line(file_, line_,
                     fmt::format("height {} m is not above the level before's, {} m on line {}: the heights of a "
                                 "sounding increase",
                                 height, sounding_.levels.back().height, last_level_line_));
    check_theta_and_vapour(theta, vapour);
    sounding_.levels.push_back({height, theta, vapour / grams_per_kilogram, numbers[3], numbers[4]});
    last_level_line_ = line_;
  }

  void check_theta_and_vapour(double theta, double vapour) const {
    if (!(theta > 0.0)) throw bad_line(file_, line_, fmt::format("θ {} K: must be > 0", theta));
    if (vapour < 0.0) throw bad_line(file_, line_, fmt::format("q_v {} g/kg: must be >= 0", vapour));
  }

  fs::path file_;
  InputSounding sounding_{};
  int line_ = 0;             ///< the line read last, from 1
  int surface_line_ = 0;     ///< the surface line's; 0 before it
  int last_level_line_ = 0;  ///< the last level's
};

}  // namespace

InputSounding read_input_sounding(const fs::path& file) {
  const auto unreadable = [&](const std::error_code& error) {
    return Error(ExitCode::bad_input, name_of(file), fmt::format("cannot read the sounding ({})", error.message()));
  };
  std::error_code error;
  const fs::file_status status = fs::status(file, error);
  if (status.type() == fs::file_type::not_found)
    throw unreadable(error ? error : std::make_error_code(std::errc::no_such_file_or_directory));
  if (error) throw unreadable(error);
  if (!fs::is_regular_file(status))
    throw Error(ExitCode::bad_input, name_of(file), "not a regular file: a sounding is a text file");
  errno = 0;
  std::ifstream in(file);
  if (!in)
    throw unreadable(errno != 0 ? std::error_code(errno, std::generic_category())
                                : std::make_error_code(std::errc::io_error));
  SoundingReader reader(file);
  for (std::string line; std::getline(in, line);) reader.add(line);
  if (in.bad()) throw unreadable(std::make_error_code(std::errc::io_error));
  return std::move(reader).finish();
}

InputSounding parse_input_sounding(std::string_view text, const fs::path& file) {
  SoundingReader reader(file);
  while (!text.empty()) {
    const std::size_t end = std::min(text.find('\n'), text.size());
    reader.add(text.substr(0, end));
    text.remove_prefix(std::min(end + 1, text.size()));
  }
  return std::move(reader).finish();
}

}  // namespace simapp::io
