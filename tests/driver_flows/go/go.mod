module grape.dev/driverflows

go 1.22

require github.com/neo4j/neo4j-go-driver/v5 v5.28.4
