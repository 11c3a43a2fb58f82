package io.edp.manager.api;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import tools.jackson.databind.json.JsonMapper;

/** The merge algorithm against the examples of RFC 7386, Appendix A. */
class MergePatchTest {

    private static final JsonMapper json = JsonMapper.shared();

    @ParameterizedTest(name = "{0} + {1} = {2}")
    @CsvSource(delimiter = '|', textBlock = """
            {"a":"b"}               | {"a":"c"}             | {"a":"c"}
            {"a":"b"}               | {"b":"c"}             | {"a":"b","b":"c"}
            {"a":"b"}               | {"a":null}            | {}
            {"a":"b","b":"c"}       | {"a":null}            | {"b":"c"}
            {"a":["b"]}             | {"a":"c"}             | {"a":"c"}
            {"a":"c"}               | {"a":["b"]}           | {"a":["b"]}
            {"a":{"b":"c"}}         | {"a":{"b":"d","c":null}} | {"a":{"b":"d"}}
            {"a":[{"b":"c"}]}       | {"a":[1]}             | {"a":[1]}
            ["a","b"]               | ["c","d"]             | ["c","d"]
            {"a":"b"}               | ["c"]                 | ["c"]
            {"a":"foo"}             | null                  | null
            {"a":"foo"}             | "bar"                 | "bar"
            {"e":null}              | {"a":1}               | {"e":null,"a":1}
            [1,2]                   | {"a":"b","c":null}    | {"a":"b"}
            {}                      | {"a":{"bb":{"ccc":null}}} | {"a":{"bb":{}}}
            """)
    void mergesAsRfc7386Says(String target, String patch, String result) {
        assertThat(MergePatch.merge(json.readTree(target), json.readTree(patch))).isEqualTo(json.readTree(result));
    }
}
