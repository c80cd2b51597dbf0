// The job file (compile/program_job.hpp): what PLINTH_RECORD_PROGRAMS writes reads back
// byte-exactly, old files still read, and a hostile or damaged file is a LogicError whose
// message is short and names the problem.

#include "compile/program_job.hpp"

#include <plinth/errors.hpp>

#include <gtest/gtest.h>

#include <string>

namespace program_job_test {
namespace {

using plinth::detail::parse_program_job;
using plinth::detail::program_job_text;

/// The message of the LogicError that parsing `text` throws ("" if it parses).
std::string refusal(const std::string& text) {
  try {
    parse_program_job(text);
  } catch (const plinth::LogicError& e) {
    return e.what();
  }
  return "";
}

TEST(ProgramJob, RoundTripsEveryField) {
  plinth::ProgramOptions options;
  options.no_prelude = true;
  options.fast_math = true;
  options.compiler_options = {"-cl-mad-enable", "-DX=\"a b\""};
  options.constant_arrays = {{"c", "float", 16, 4}, {"d", "int2", 3, 8}};
  const auto job = parse_program_job(program_job_text("level_zero", "KERNEL void k() {}", options));
  EXPECT_EQ(job.api, "level_zero");
  EXPECT_EQ(job.source, "KERNEL void k() {}");
  EXPECT_TRUE(job.options.no_prelude);
  EXPECT_TRUE(job.options.fast_math);
  EXPECT_EQ(job.options.compiler_options, options.compiler_options);
  ASSERT_EQ(job.options.constant_arrays.size(), 2U);
  EXPECT_EQ(job.options.constant_arrays[1].name, "d");
  EXPECT_EQ(job.options.constant_arrays[1].ctype, "int2");
  EXPECT_EQ(job.options.constant_arrays[1].length, 3U);
  EXPECT_EQ(job.options.constant_arrays[1].itemsize, 8U);
}

TEST(ProgramJob, CarriesAnyBytes) {
  std::string source;
  for (int byte = 0; byte < 256; ++byte) source += static_cast<char>(byte);
  const auto text = program_job_text("cuda", source, {});
  EXPECT_NE(text.find("\"plinth_program\": 2"), std::string::npos) << text;
  EXPECT_NE(text.find("\"base64\""), std::string::npos) << text;
  EXPECT_EQ(parse_program_job(text).source, source);
  // UTF-8 text stays readable, as version 1.
  const auto plain = program_job_text("cuda", "caf\xc3\xa9", {});
  EXPECT_NE(plain.find("\"plinth_program\": 1"), std::string::npos) << plain;
  EXPECT_EQ(parse_program_job(plain).source, "caf\xc3\xa9");
  // Every length's padding.
  for (std::size_t n = 0; n < 8; ++n) {
    const std::string bytes = std::string(n, '\xff');
    EXPECT_EQ(parse_program_job(program_job_text("cuda", bytes, {})).source, bytes) << n;
  }
}

TEST(ProgramJob, ReadsOldJobs) {
  const auto job = parse_program_job(
      R"({"plinth_program": 1, "api": "opencl", "source": "__kernel void r() {}", "no_prelude": true})");
  EXPECT_EQ(job.api, "opencl");
  EXPECT_TRUE(job.options.no_prelude);
  EXPECT_FALSE(job.options.fast_math);
  EXPECT_TRUE(job.options.compiler_options.empty());
}

TEST(ProgramJob, RefusesBadBase64) {
  for (const char* value :
       {"\"QQ\"", "\"QQ=\"", "\"Q===\"", "\"QQ==QQ==\"", "\"QQ*=\"", "1", "[\"QQ==\"]"}) {
    const std::string text =
        std::string(R"({"plinth_program": 2, "api": "cuda", "source": {"base64": )") + value + "}}";
    EXPECT_NE(refusal(text).find("source"), std::string::npos) << value << ": " << refusal(text);
  }
  // Version 1 has no base64.
  EXPECT_NE(refusal(R"({"plinth_program": 1, "api": "cuda", "source": {"base64": "QQ=="}})"), "");
}

TEST(ProgramJob, RangeChecksNumbers) {
  const auto with_length = [](const std::string& length) {
    return R"({"plinth_program": 1, "api": "cuda", "source": "",
               "constant_arrays": [{"name": "c", "ctype": "float", "length": )" +
           length + R"(, "itemsize": 4}]})";
  };
  for (const char* length : {"-1", "1.5e300", "0", "4.0", "2147483649", "18446744073709551615",
                             "\"4\"", "true", "null", "1e999999"}) {
    const auto message = refusal(with_length(length));
    EXPECT_NE(message, "") << length;
    EXPECT_LT(message.size(), 300U) << message;
  }
  EXPECT_NE(refusal(with_length("-1")).find("\"length\" is -1, not an integer from 1 to 2^31"),
            std::string::npos)
      << refusal(with_length("-1"));
  EXPECT_EQ(parse_program_job(with_length("16")).options.constant_arrays.at(0).length, 16U);
  // The product too.
  EXPECT_NE(refusal(R"({"plinth_program": 1, "api": "cuda", "source": "", "constant_arrays":
      [{"name": "c", "ctype": "float", "length": 2147483648, "itemsize": 2}]})")
                .find("larger than 2^31 bytes"),
            std::string::npos);
  for (const char* version : {"1.0", "-1", "1.5e300", "3", "\"1\""}) {
    EXPECT_NE(refusal(std::string(R"({"plinth_program": )") + version +
                      R"(, "api": "cuda", "source": ""})")
                  .find("not a plinth program job"),
              std::string::npos)
        << version;
  }
}

TEST(ProgramJob, QuotesABoundedExcerptOfAHugeMalformedJob) {
  for (const std::string& text :
       {std::string(R"({"plinth_program": 1, "source": ")") + std::string(4'000'000, 'x'),
        std::string(4'000'000, '['), "{\"a\": " + std::string(1'000'000, '9') + "e9999}",
        std::string(R"({"plinth_program": 1, "api": "cuda", "source": )") +
            std::string(100'000, '[') + std::string(100'000, ']') + "}",
        std::string(R"({"plinth_program": 1, "api": "cuda", "source": "", "fast_math": ")") +
            std::string(1'000'000, 'y') + "\"}"}) {
    const auto message = refusal(text);
    EXPECT_NE(message, "");
    EXPECT_LT(message.size(), 400U) << message.substr(0, 400);
  }
}

TEST(ProgramJob, RefusesCompilerOptionsOffTheApisAllowList) {
  const auto message = refusal(
      R"({"plinth_program": 1, "api": "level_zero", "source": "",
          "compiler_options": ["-DOK", "-fplugin=/tmp/evil.so"]})");
  EXPECT_NE(message.find("'-fplugin=/tmp/evil.so' is not accepted for level_zero"),
            std::string::npos)
      << message;
  EXPECT_NE(refusal(R"({"plinth_program": 1, "api": "level_zero", "source": "",
                        "compiler_options": ["-Xclang", "-load", "-Xclang", "/tmp/evil.so"]})")
                .find("'-Xclang'"),
            std::string::npos);
  EXPECT_NE(refusal(R"({"plinth_program": 1, "api": "opencl", "source": "",
                        "compiler_options": "-I/x"})"),
            "");
}

TEST(ProgramJob, RefusesWrongTypes) {
  for (const char* text :
       {"[]", "1", R"({"plinth_program": 1})", R"({"plinth_program": 1, "api": "cuda"})",
        R"({"plinth_program": 1, "api": 7, "source": ""})",
        R"({"plinth_program": 1, "api": "", "source": ""})",
        R"({"plinth_program": 1, "api": "open cl", "source": ""})",
        R"({"plinth_program": 1, "api": "cuda\n", "source": ""})",
        R"({"plinth_program": 1, "api": "cuda", "source": "", "no_prelude": 1})",
        R"({"plinth_program": 1, "api": "cuda", "source": "", "compiler_options": [1]})",
        R"({"plinth_program": 1, "api": "cuda", "source": "", "constant_arrays": [1]})",
        R"({"plinth_program": 1, "api": "cuda", "source": "", "constant_arrays": [{}]})"}) {
    EXPECT_NE(refusal(text), "") << text;
  }
}

}  // namespace
}  // namespace program_job_test
