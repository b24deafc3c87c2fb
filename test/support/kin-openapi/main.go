// Reads each OpenAPI 3.0 twin with kin-openapi, as a Go team would, validates it (doc.Validate), and judges every
// shared vector against it with kin-openapi's own schema validator, which implements OpenAPI 3.0's dialect
// (nullable, no type arrays). Prints one JSON report on stdout; the test that runs it reads the report.
//
//	go run main.go <folder of the twins> <folder of the vectors> <api>...
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"

	"github.com/getkin/kin-openapi/openapi3"
)

type vector struct {
	Name      string      `json:"name"`
	Operation string      `json:"operation"`
	Part      string      `json:"part"`
	Verdict   string      `json:"verdict"`
	Status    int         `json:"status"`
	MediaType string      `json:"mediaType"`
	Value     interface{} `json:"value"`
}

type wrong struct {
	API       string `json:"api"`
	Operation string `json:"operation"`
	Part      string `json:"part"`
	Name      string `json:"name"`
	Expected  string `json:"expected"`
	Error     string `json:"error,omitempty"`
}

type report struct {
	Invalid  map[string]string `json:"invalid"`
	Vectors  int               `json:"vectors"`
	Skipped  []string          `json:"skipped"`
	Wrong    []wrong           `json:"wrong"`
	Problems []string          `json:"problems"`
}

// The one format a verdict may depend on, registered as CONTRACT.md tells Go teams to.
func init() {
	openapi3.DefineStringFormat("uuid", `^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)
}

func find(doc *openapi3.T, operationID string) (*openapi3.PathItem, *openapi3.Operation) {
	for _, item := range doc.Paths {
		for _, operation := range item.Operations() {
			if operation.OperationID == operationID {
				return item, operation
			}
		}
	}
	return nil, nil
}

// The schema a vector's value is checked against, as contract/check_vectors.py builds it: the parameters as one
// object, the request body, or the body of the declared answer of the status in the media type.
func schemaOf(doc *openapi3.T, v vector) (*openapi3.Schema, string) {
	item, operation := find(doc, v.Operation)
	if operation == nil {
		return nil, "no operation " + v.Operation
	}
	switch v.Part {
	case "params":
		object := openapi3.NewObjectSchema()
		closed := false
		object.AdditionalPropertiesAllowed = &closed
		for _, parameter := range append(append(openapi3.Parameters{}, item.Parameters...), operation.Parameters...) {
			object.Properties[parameter.Value.Name] = parameter.Value.Schema
			if parameter.Value.Required {
				object.Required = append(object.Required, parameter.Value.Name)
			}
		}
		return object, ""
	case "request":
		return operation.RequestBody.Value.Content.Get("application/json").Schema.Value, ""
	}
	status := v.Status
	if status == 0 {
		status = 200
	}
	media := v.MediaType
	if media == "" {
		media = "application/json"
	}
	response := operation.Responses.Get(status)
	if response == nil {
		response = operation.Responses[strconv.Itoa(status)[:1]+"XX"]
	}
	if response == nil {
		return nil, fmt.Sprintf("%s declares no answer %d", v.Operation, status)
	}
	content := response.Value.Content.Get(media)
	if content == nil || content.Schema == nil {
		return nil, ""
	}
	return content.Schema.Value, ""
}

func main() {
	twins, vectors, apis := os.Args[1], os.Args[2], os.Args[3:]
	out := report{Invalid: map[string]string{}, Skipped: []string{}, Wrong: []wrong{}, Problems: []string{}}
	for _, api := range apis {
		loader := openapi3.NewLoader()
		doc, err := loader.LoadFromFile(filepath.Join(twins, api+".openapi-3.0.json"))
		if err != nil {
			out.Problems = append(out.Problems, api+": "+err.Error())
			continue
		}
		if err := doc.Validate(context.Background()); err != nil {
			out.Invalid[api] = err.Error()
		}
		files, _ := filepath.Glob(filepath.Join(vectors, api, "*.json"))
		sort.Strings(files)
		for _, file := range files {
			text, err := os.ReadFile(file)
			if err != nil {
				out.Problems = append(out.Problems, err.Error())
				continue
			}
			var list []vector
			if err := json.Unmarshal(text, &list); err != nil {
				out.Problems = append(out.Problems, file+": "+err.Error())
				continue
			}
			for _, v := range list {
				schema, problem := schemaOf(doc, v)
				if problem != "" {
					out.Problems = append(out.Problems, problem)
					continue
				}
				if schema == nil {
					// A text answer (a gateway's page) has no schema to judge by.
					out.Skipped = append(out.Skipped, api+"/"+v.Operation+" "+v.Part+" "+v.Name)
					continue
				}
				out.Vectors++
				err := schema.VisitJSON(v.Value)
				reached := "valid"
				if err != nil {
					reached = "invalid"
				}
				if reached != v.Verdict {
					w := wrong{API: api, Operation: v.Operation, Part: v.Part, Name: v.Name, Expected: v.Verdict}
					if err != nil {
						w.Error = err.Error()
					}
					out.Wrong = append(out.Wrong, w)
				}
			}
		}
	}
	encoded, _ := json.MarshalIndent(out, "", " ")
	fmt.Println(string(encoded))
}
