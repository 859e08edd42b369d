module lab.continuationreplay/gofixture

go 1.25.0
