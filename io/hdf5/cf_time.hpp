#pragma once
/// Time as the CF conventions (section 4.4) want it: values in seconds since a reference date
/// and time (the run's time.start, an ISO 8601 date and time in UTC), with that date in the
/// units and the calendar named, so that xarray decodes dates, CDO shows them and ParaView's CF
/// reader takes the variable for time (not for a third spatial axis).
#include <hdf5.h>

#include <string>
#include <string_view>
#include <variant>

namespace simapp::io {

/// A date and time in UTC, to the second, in the proleptic Gregorian calendar.
struct UtcTime {
  int year = 2000, month = 1, day = 1;
  int hour = 0, minute = 0, second = 0;
};

/// The calendar of every time simapp writes: ISO 8601's, the Gregorian calendar extended back
/// before its introduction in 1582 (CF's "standard" calendar would count the days before
/// 1582-10-15 in the Julian one, so that a time.start before then would not mean what it says).
inline constexpr const char* cf_calendar = "proleptic_gregorian";

/// `text` as a date and time in UTC: YYYY-MM-DD, optionally followed by T (or a space) and
/// HH:MM or HH:MM:SS, optionally followed by Z (a time without a zone is UTC too); years 0001 to
/// 9999. Otherwise what is wrong with it, in words.
std::variant<UtcTime, std::string> parse_utc_time(std::string_view text);

/// The time as ISO 8601 writes it: "2000-01-01T00:00:00Z".
std::string iso_text(const UtcTime& time);

/// CF's units of a time in seconds since `start`, as UDUNITS writes them (the form ParaView, CDO,
/// cftime and netCDF's tools read): "seconds since 2000-01-01 00:00:00".
std::string cf_time_units(const UtcTime& start);

/// Writes the CF attributes of time coordinate `dataset`, whose values are seconds since
/// `start` (text that parse_utc_time accepts; an internal Error otherwise): units, long_name,
/// standard_name, calendar and axis.
void write_time_attributes(hid_t dataset, const std::string& start);

}  // namespace simapp::io
