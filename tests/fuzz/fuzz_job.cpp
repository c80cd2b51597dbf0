// Fuzzes the job-file parser: plinth::detail::parse_program_job (core/compile/program_job.hpp),
// what `plinth-compile --job` reads from files a user may receive from elsewhere. Input: the
// file's text. A bad file is a LogicError whose message is short; a file that parses holds only
// options on its API's allow-list and sizes in range, and written back as a job file it parses
// into the same job, byte for byte.

#include "fuzz_common.hpp"

#include <plinth/backend/compiler_option_allow_list.hpp>
#include <plinth/errors.hpp>

#include "compile/program_job.hpp"

#include <string>
#include <string_view>

namespace {

using plinth::detail::ProgramJob;

bool same(const ProgramJob& a, const ProgramJob& b) {
  if (a.api != b.api || a.source != b.source || a.options.no_prelude != b.options.no_prelude ||
      a.options.fast_math != b.options.fast_math ||
      a.options.compiler_options != b.options.compiler_options ||
      a.options.constant_arrays.size() != b.options.constant_arrays.size())
    return false;
  for (std::size_t i = 0; i < a.options.constant_arrays.size(); ++i) {
    const auto& x = a.options.constant_arrays[i];
    const auto& y = b.options.constant_arrays[i];
    if (x.name != y.name || x.ctype != y.ctype || x.length != y.length || x.itemsize != y.itemsize)
      return false;
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  ProgramJob job;
  try {
    job = plinth::detail::parse_program_job(text);
  } catch (const plinth::LogicError& e) {
    // A bounded excerpt of the input, whatever its size (the allow-list quotes up to 200 bytes
    // of an option, escaped: at most 4 bytes each).
    PLINTH_FUZZ_CHECK(std::string_view(e.what()).size() < 2000);
    return 0;
  }
  PLINTH_FUZZ_CHECK(!job.api.empty());
  PLINTH_FUZZ_CHECK(
      plinth::backend::compiler_option_problem(job.api, job.options.compiler_options).empty());
  for (const auto& array : job.options.constant_arrays) {
    PLINTH_FUZZ_CHECK(array.length >= 1 && array.itemsize >= 1);
    PLINTH_FUZZ_CHECK(array.length * array.itemsize <= (std::size_t{1} << 31));
  }
  // Written back (any bytes: base64 where not UTF-8), it reads as the same job.
  const auto again = plinth::detail::parse_program_job(
      plinth::detail::program_job_text(job.api, job.source, job.options));
  PLINTH_FUZZ_CHECK(same(job, again));
  return 0;
}
