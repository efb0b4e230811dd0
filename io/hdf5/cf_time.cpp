#include "io/hdf5/cf_time.hpp"

#include <regex>

#include <fmt/format.h>

#include "foundation/error.hpp"
#include "io/hdf5/hdf5_file.hpp"

namespace simapp::io {

namespace {

bool is_leap_year(int year) { return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0; }

int days_in_month(int year, int month) {
  constexpr int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return month == 2 && is_leap_year(year) ? 29 : days[month - 1];
}

}  // namespace

std::variant<UtcTime, std::string> parse_utc_time(std::string_view text) {
  static const std::regex form(R"((\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?(Z|[+-]\d{2}:?\d{2})?)?)");
  std::match_results<std::string_view::const_iterator> parts;
  if (!std::regex_match(text.begin(), text.end(), parts, form))
    return std::string("expected an ISO 8601 date and time in UTC, YYYY-MM-DDTHH:MM:SSZ");
  const auto number = [&](std::size_t part) { return parts[part].matched ? std::stoi(parts[part].str()) : 0; };
  const UtcTime time{number(1), number(2), number(3), number(4), number(5), number(6)};
  if (parts[7].matched && parts[7].str() != "Z")
    return fmt::format("the zone {} is not UTC: end the time with Z (or with no zone)", parts[7].str());
  if (time.year < 1) return std::string("the year must be 0001 to 9999");
  if (time.month < 1 || time.month > 12) return fmt::format("month {} is not 1 to 12", time.month);
  if (time.day < 1 || time.day > days_in_month(time.year, time.month))
    return fmt::format("day {} is not in {:04}-{:02}", time.day, time.year, time.month);
  if (time.hour > 23 || time.minute > 59 || time.second > 59)
    return fmt::format("{:02}:{:02}:{:02} is not a time of day (00:00:00 to 23:59:59)", time.hour, time.minute,
                       time.second);
  return time;
}

std::string iso_text(const UtcTime& time) {
  return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z", time.year, time.month, time.day, time.hour, time.minute,
                     time.second);
}

std::string cf_time_units(const UtcTime& start) {
  return fmt::format("seconds since {:04}-{:02}-{:02} {:02}:{:02}:{:02}", start.year, start.month, start.day,
                     start.hour, start.minute, start.second);
}

void write_time_attributes(hid_t dataset, const std::string& start) {
  const auto parsed = parse_utc_time(start);
  const UtcTime* time = std::get_if<UtcTime>(&parsed);
  if (time == nullptr)
    throw Error(ExitCode::internal, "time.start", "'" + start + "': " + std::get<std::string>(parsed));
  write_attribute(dataset, "units", cf_time_units(*time));
  write_attribute(dataset, "long_name", std::string("time"));
  write_attribute(dataset, "standard_name", std::string("time"));
  write_attribute(dataset, "calendar", std::string(cf_calendar));
  write_attribute(dataset, "axis", std::string("T"));
}

}  // namespace simapp::io
